#!/bin/sh
# Harness self-test, never part of the default run: a guest check that is
# meant to fail.  `make test` boots with it and requires the run to fail,
# proving the harness cannot report green on a red guest.
. /tests/ktap.sh
ktap_check "this-must-fail" false
