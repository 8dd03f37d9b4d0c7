"""Generated qrels and runs for the agreement tests of the measure families beyond trec_eval (ERR, RBP,
nDCG variants, ...), and the canonical ranking.

Every reference tool breaks score ties its own way, so the tests hand them the canonical ranking
(score descending, docno descending) as distinct rank-derived scores; the raw run (with ties) goes to
irmetrics.  Query ids are numeric strings because gdeval refuses others.
"""
from hypothesis import strategies as st

DOCS = ['d0', 'd1', 'd2', 'd3', 'd10', 'd11', 'd20', 'd100', 'D5', 'x', 'y9', 'z']
SCORES = [-1.5, -1.0, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0]


@st.composite
def collections(draw, grades=(-1, 0, 1, 2, 3, 4), queries=('1', '2', '3', '10'), min_docs=0):
    """(qrels, run) as dicts of dicts: graded judgments (negative ones too), tied scores, a qrels query
    possibly missing from the run and a run query possibly missing from the qrels."""
    qrels, run = {}, {}
    for q in draw(st.lists(st.sampled_from(queries), min_size=1, max_size=len(queries), unique=True)):
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=len(DOCS), unique=True))
        qrels[q] = {d: draw(st.sampled_from(grades)) for d in judged}
    for q in list(qrels) + ['99']:
        if draw(st.booleans()) or q == next(iter(qrels)):
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=min_docs, max_size=len(DOCS), unique=True))
            if docs:
                run[q] = {d: draw(st.sampled_from(SCORES)) for d in docs}
    return qrels, run


def ranked(docs):
    """Doc ids of ``{doc: score}`` in canonical order."""
    return [d for d, _ in sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)]


def canonical(run, globally=False):
    """``run`` with distinct scores n, n-1, ... in canonical order (decreasing over the whole run if
    ``globally``, for tools that compare scores across queries)."""
    out, top = {}, sum(len(d) for d in run.values())
    for q, docs in run.items():
        order = ranked(docs)
        start = top if globally else len(order)
        out[q] = {d: float(start - i) for i, d in enumerate(order)}
        top -= len(order)
    return out


def tie_free(run):
    """Whether no two documents of a query share a score."""
    return all(len(set(docs.values())) == len(docs) for docs in run.values())


def per_query(results, measure):
    """{query: value} of one measure from irmetrics' CalcResults."""
    return {m.query_id: m.value for m in results.iter_metrics() if m.measure == measure}


def reference_values(provider, measure, qrels, run):
    """{query: value} from an ir_measures provider."""
    return {m.query_id: m.value for m in provider.iter_calc([measure], qrels, run)}


def raw_reference_values(provider, measure, qrels, run):
    """{query: value} exactly as an ir_measures provider computes them, before ir_measures fills the
    queries it left out with the measure's default (only the queries the tool itself reports)."""
    return {m.query_id: m.value for m in provider.evaluator([measure], qrels)._iter_calc(run)}
