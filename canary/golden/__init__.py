"""Golden curves: a healthy run of a ferry on a lane, recorded and judged against."""
