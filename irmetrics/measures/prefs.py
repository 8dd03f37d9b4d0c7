"""Measures of preference judgments and of judgment groups (trec_eval's ``prefs_*`` and ``*_avgjg``).

These measures read other judgments than qrels: preferences between documents
(:class:`irmetrics.Preferences`, trec_eval ``-R prefs`` or ``-R qrels_prefs``) or several assessors'
qrels of one query (:class:`irmetrics.JudgmentGroups`, ``-R qrels_jg``).  So they are not among the
registry's definitions of measures computed from qrels (their names parse all the same):
:func:`irmetrics.calc` computes them when it is given such judgments (:mod:`irmetrics.api.preferences`),
and refuses them with qrels.

A preference a > b of a judgment group (jg) is *fulfilled* when the run ranks a above b: both retrieved
with a first, or a retrieved and b not (an *implied* preference).  ``pairs`` says which preferences
count: ``'all'`` (one neither of whose documents is retrieved counts as not fulfilled), ``'ret'`` (both
documents retrieved) or ``'imp'`` (at least one retrieved).  The retrieved documents are those of the
ranking in trec_eval's order for preferences: score descending, ties by document id *ascending*
(form_prefs_counts.c; qrels measures break ties the other way).
"""
from ..algebra.measure import REGISTRY, Measure, MeasureDef
from ..algebra.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL, Param
from ..constraints import Choice, Float

_SOURCE = 'C. Buckley. trec_eval 10.0, {}: the source is the definition (https://github.com/usnistgov/trec_eval).'
_PAIRS = Param('pairs', Choice('all', 'ret', 'imp'), 'all',
               "which preferences count: 'all'; 'ret': both documents retrieved; 'imp': at least one retrieved "
               "(trec_eval's _ret and _imp variants)")
_RNONREL_PAIRS = Param('pairs', Choice('all', 'ret'), 'all', "'all', or 'ret': both documents retrieved")


def _measure(definition: MeasureDef) -> Measure:
    """The bare measure of a definition, registered as a measure of other judgments than qrels (see the
    module docstring): its name parses, but no engine of qrels is asked for it."""
    return REGISTRY.register_other(definition)


PrefsSimp = _measure(MeasureDef(
    name='PrefsSimp',
    params=(_PAIRS,),
    at_param=None,
    summary='Preferences fulfilled over preferences counted, all judgment groups together.',
    formula='PrefsSimp = sum_jg fulfilled_jg / sum_jg possible_jg (0 when no preference counts); a pair of '
            'documents in two judgment groups counts twice, contradictions included',
    citation=_SOURCE.format('m_prefs_simp.c, m_prefs_simp_ret.c, m_prefs_simp_imp.c and form_prefs_counts.c'),
))

PrefsPair = _measure(MeasureDef(
    name='PrefsPair',
    params=(_PAIRS,),
    at_param=None,
    summary='The mean over document pairs of the fraction of their preferences the run fulfils.',
    formula='PrefsPair = (1 / |pairs|) sum_{a,b} c(a > b) / (c(a > b) + c(b > a)), over the pairs with a '
            'preference, a ranked above b, c counting the judgment groups that prefer one to the other; '
            "with pairs='all' a pair neither of whose documents is retrieved adds 0",
    citation=_SOURCE.format('m_prefs_pair.c, m_prefs_pair_ret.c and m_prefs_pair_imp.c'),
))

PrefsAvgJG = _measure(MeasureDef(
    name='PrefsAvgJG',
    params=(_PAIRS,),
    at_param=None,
    summary='Preferences fulfilled over preferences counted, per judgment group, averaged over the groups.',
    formula='PrefsAvgJG = (1 / |jg|) sum_jg fulfilled_jg / possible_jg (a group without a preference counted '
            'adds 0; 0 when the sum is 0)',
    citation=_SOURCE.format('m_prefs_avgjg.c, m_prefs_avgjg_ret.c and m_prefs_avgjg_imp.c'),
))

PrefsAvgJGRnonrel = _measure(MeasureDef(
    name='PrefsAvgJGRnonrel',
    params=(_RNONREL_PAIRS,),
    at_param=None,
    summary='PrefsAvgJG with the non-relevant documents of each group made as many as its relevant ones.',
    formula='per group, with R relevant (level > 0) and N non-relevant (level 0) documents (retrieved ones '
            "with pairs='ret'): N <= R adds (R - N) fulfilled preferences per relevant retrieved document "
            'and R - N possible ones per relevant document; N > R counts again with only the first R '
            'non-relevant documents (in rank order); the ratios averaged over the groups (0 when the sum '
            'is not positive, a group of 0 / 0 included)',
    citation=_SOURCE.format('m_prefs_avgjg_Rnonrel.c and m_prefs_avgjg_Rnonrel_ret.c'),
    notes="trec_eval's recount is reproduced as written: with one sub-group it pairs every document of the group, "
          'the non-relevant ones and each with itself included, with the first R non-relevant documents.',
))

NumPrefs = _measure(MeasureDef(
    name='NumPrefs',
    params=(Param('what', Choice('possible', 'fulfilled', 'fulfilled_ret'), 'possible',
                  "'possible': every preference; 'fulfilled': those fulfilled, implied ones included; "
                  "'fulfilled_ret': those fulfilled with both documents retrieved"),),
    at_param=None,
    aggregate='sum',
    bounds=None,
    summary='The number of preferences: every one, or those the run fulfils.',
    formula='sum over judgment groups of the preferences counted (a preference in two groups counts twice)',
    citation=_SOURCE.format('m_prefs_num_prefs_poss.c, m_prefs_num_prefs_ful.c and m_prefs_num_prefs_ful_ret.c'),
))

PAvgJG = _measure(MeasureDef(
    name='P_avgjg',
    params=(CUTOFF_REQUIRED, REL, JUDGED_ONLY),
    summary='Precision at k against each judgment group of qrels, averaged over the groups.',
    formula='P_avgjg@k = (1 / |jg|) sum_jg P@k(jg), P@k as irmetrics P',
    citation=_SOURCE.format('m_P_avgjg.c and form_res_rels_jg.c'),
))

APAvgJG = _measure(MeasureDef(
    name='AP_avgjg',
    params=(REL, JUDGED_ONLY),
    at_param=None,
    summary='Average precision against each judgment group of qrels, averaged over the groups.',
    formula='AP_avgjg = (1 / |jg|) sum_jg AP(jg), AP as irmetrics AP',
    citation=_SOURCE.format('m_map_avgjg.c and form_res_rels_jg.c'),
))

RprecAvgJG = _measure(MeasureDef(
    name='Rprec_avgjg',
    params=(REL, JUDGED_ONLY, Param('mult', Float(0), 1.0, 'precision at rank int(mult * R + 0.9), R of each group')),
    at_param=None,
    summary='Precision at a multiple of R against each judgment group of qrels, averaged over the groups.',
    formula='Rprec_avgjg = (1 / |jg|) sum_jg Rprec(mult)(jg), Rprec as irmetrics Rprec',
    citation=_SOURCE.format('m_Rprec_mult_avgjg.c and form_res_rels_jg.c'),
))

#: The measures of preference judgments (:class:`irmetrics.Preferences`).
PREFERENCE_MEASURES = tuple(m.definition for m in (NumPrefs, PrefsSimp, PrefsPair, PrefsAvgJG, PrefsAvgJGRnonrel))
#: The measures of judgment groups of qrels (:class:`irmetrics.JudgmentGroups`).
JUDGMENT_GROUP_MEASURES = tuple(m.definition for m in (PAvgJG, APAvgJG, RprecAvgJG))
