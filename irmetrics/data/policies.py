"""The options that say what to do with repeated rows, declared once (read by the data layer, the API,
the bridges and the command line; this module imports nothing heavy, so the command line's parser can).
"""
from ..constraints import Choice, Option

#: What to keep of a document retrieved more than once for a query (runs): an error (trec_eval), or
#: the first, last or highest-scored occurrence.
DUPLICATES = Option('duplicates', Choice('error', 'first', 'last', 'max'))

#: A document judged more than once for a query (qrels): an error for the measures that read one grade
#: per document (trec_eval), or its highest grade.
QRELS_DUPLICATES = Option('duplicates', Choice('error', 'max'))

#: How a qrels' grades are read: 'real' (a fractional grade is kept: 0.5, 2.7) or 'trec_eval' (trec_eval 10's
#: rule: a grade's integer part, as C's atol reads its text; see docs/conventions.md).
GRADES = Option('grades', Choice('real', 'trec_eval'))
