"""What tests share: Hypothesis strategies, reference answers, fakes, helpers; and fixtures/, the test data."""
