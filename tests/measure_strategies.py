"""Hypothesis strategies for measures: valid values of every parameter constraint, and measures of
any family with any valid parameters (the algebra tests and the measure-string property tests); and
the round trip of a measure through its text and its trec_eval name, which the tests and the fuzzing
harness ``fuzz/fuzz_measure_parser.py`` check."""
from hypothesis import strategies as st

from irmetrics import MeasureError, parse_measure, parse_trec_measure
from irmetrics import constraints as C_
from irmetrics.algebra import params as P_
from irmetrics.algebra.measure import REGISTRY
from irmetrics.dialects.trec_eval import INVOCATION_PARAMS, trec_output_name


def parameter_values(constraint):
    """A strategy for valid values of a parameter constraint."""
    if isinstance(constraint, C_.Int):
        low = constraint.minimum if constraint.minimum is not None else -3
        return st.integers(min_value=low, max_value=constraint.maximum if constraint.maximum is not None else 5000)
    if isinstance(constraint, C_.Float):
        return st.floats(min_value=constraint.low, max_value=constraint.high, exclude_min=constraint.low_open,
                         exclude_max=constraint.high_open, allow_nan=False, allow_infinity=False)
    if isinstance(constraint, C_.Bool):
        return st.booleans()
    if isinstance(constraint, C_.Choice):
        return st.sampled_from(constraint.choices)
    if isinstance(constraint, C_.GainMap):
        gains = st.integers(0, 100) | st.floats(0, 1e6, allow_nan=False, allow_infinity=False)
        return st.dictionaries(st.integers(0, 10), gains, min_size=1, max_size=4)
    if isinstance(constraint, C_.FloatList):
        return st.lists(parameter_values(constraint.item), min_size=1, max_size=5)
    if isinstance(constraint, C_.Level):                  # a whole grade, or a real one (1.5, 1e-3)
        return parameter_values(constraint.whole) | parameter_values(constraint.real)
    if isinstance(constraint, C_.IntOrChoice):
        return parameter_values(constraint.number) | st.sampled_from(constraint.choices)
    raise AssertionError(f'no strategy for {constraint!r}')


@st.composite
def measures(draw, names):
    """A measure of one of the families ``names``, with any valid parameters (those it requires always)."""
    bare = REGISTRY.lookup(draw(st.sampled_from(names))).definition.bare
    params = bare.definition.params
    required = [p for p in params if p.default is P_.REQUIRED]
    optional = [p for p in params if p.default is not P_.REQUIRED]
    chosen = required + (draw(st.lists(st.sampled_from(optional), unique_by=lambda p: p.name)) if optional else [])
    values = {p.name: draw(parameter_values(p.constraint)) for p in chosen}
    try:
        return bare(**values)
    except MeasureError:                  # a combination the family refuses (RBP's max_rel with rel, ...)
        return bare(**{p.name: values[p.name] for p in required})


def check_round_trips(measure) -> None:
    """``measure`` reads back from its text, and from the trec_eval name it prints under (when it has one
    and no trec_eval invocation setting such as ``-l``: names leave those out).  trec_eval prints
    recall levels and Rprec multipliers with two decimals ("%3.2f"), so IPrec and Rprec_mult read back at
    that precision."""
    again = parse_measure(repr(measure))
    assert again == measure and hash(again) == hash(measure) and repr(again) == repr(measure), again
    name = trec_output_name(measure)
    if name is None or any(p in measure.params for p in INVOCATION_PARAMS):
        return
    level = {'IPrec': 'recall', 'Rprec': 'mult'}.get(measure.name)
    expected = measure(**{level: float(f'{measure[level]:.2f}')}) if level in measure.params else measure
    assert expected in parse_trec_measure(name), (measure, name)
