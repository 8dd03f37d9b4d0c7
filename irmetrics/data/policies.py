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
