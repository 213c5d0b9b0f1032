"""Statistics the study scripts share (imported, never run): the two-sided p of a figure from its
95 % interval, and Holm's step-down correction."""
import math

Z95 = 1.959964


def p_from_interval(value, half):
    """Two-sided p of `value` = 0 from its 95 % half-width (normal approximation)."""
    if half <= 0:
        return 0.0 if value else 1.0
    return math.erfc(abs(value) / (half / Z95) / math.sqrt(2))


def holm(ps):
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted
