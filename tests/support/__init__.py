"""What the tests share and are not tests themselves: helpers that lower, save and run programs, the
recorded matrix, the expected outcomes per release and class, models built for the tests."""
