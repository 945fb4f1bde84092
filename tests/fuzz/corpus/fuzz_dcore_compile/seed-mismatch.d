nosuch:::probe { }
BEGIN /arg0/ { @x = count(); @x = sum(1); }
