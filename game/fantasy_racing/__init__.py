"""Fantasy Racing: a race on a wrap-around track with fights and magic objects."""
