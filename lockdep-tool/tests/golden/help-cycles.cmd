help cycles
