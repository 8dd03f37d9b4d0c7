"""Success at k: whether any relevant document is in the top k (trec_eval ``success``)."""
from ..algebra.measure import MeasureDef, register
from ..algebra.params import CUTOFF_REQUIRED, JUDGED_ONLY, REL

Success = register(MeasureDef(
    name='Success',
    monotone=True,
    tie_order='expected',
    params=(CUTOFF_REQUIRED, REL, JUDGED_ONLY),
    summary='1 if a relevant document appears in the top k, else 0.',
    formula='Success@k = 1 if |{relevant documents in the top k}| > 0 else 0',
    citation='E. M. Voorhees. The TREC-8 Question Answering Track Report. TREC 1999.',
    notes='Also called hit rate (HitRate@k, HR@k: the share of users with a relevant item in their top k, as '
          "RecBole's Hit, ranx's hit_rate and torchmetrics' RetrievalHitRate compute it) or, in some communities, "
          'recall@k.',
), aliases=['HitRate', 'HR'])
