test:::bad { }
