report -
