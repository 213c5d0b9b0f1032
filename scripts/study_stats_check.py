#!/usr/bin/env python3
"""Checks scripts/study_stats.py against independent implementations: Holm against statsmodels'
multipletests, the p from an interval against scipy's normal survival function, on 500 random
cases each. Needs `pip install statsmodels scipy`.

    python3 scripts/study_stats_check.py
"""
import random

from scipy.stats import norm
from statsmodels.stats.multitest import multipletests

from study_stats import Z95, holm, p_from_interval

random.seed(1)
for _ in range(500):
    ps = [random.random() ** 3 for _ in range(random.randint(1, 30))]
    assert all(abs(a - b) < 1e-12 for a, b in zip(holm(ps), multipletests(ps, method="holm")[1]))
for _ in range(500):
    value, half = random.uniform(-100, 100), random.uniform(1, 80)
    assert abs(p_from_interval(value, half) - 2 * norm.sf(abs(value) / (half / Z95))) < 1e-12
print("holm = statsmodels, p = scipy, on 500 random cases each")
