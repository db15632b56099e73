"""Performance figures for `make bench`. Each module has ``main()`` that prints its figures; nothing is asserted."""
