report --brief -
