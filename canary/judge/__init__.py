"""Judgement, pure: gate results, the regression gates, the golden gates, and a run's classification."""
