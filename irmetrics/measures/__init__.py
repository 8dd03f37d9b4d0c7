"""Measure definitions, one module per family.  Definitions only: no computation here.

Importing this package registers every definition in the measure registry.
"""
from .accuracy import Accuracy
from .ap import AP, YAAP
from .auc import AUC
from .beyond_accuracy import ARP, ILD, Coverage, Gini, HeadRecall, Novelty, TailRecall, TailShare
from .bpref import Bpref
from .compat import Compat
from .counts import NumQ, NumRel, NumRet
from .cwl import BPM, INSQ, INST, NERR8, NERR9, NERR10, NERR11, SDCG
from .diversity import (
    AP_IA,
    ERR_IA,
    NRBP,
    P_IA,
    StRecall,
    alpha_DCG,
    alpha_nDCG,
    nERR_IA,
    nNRBP,
)
from .err import ERR, nERR
from .f1 import F1
from .hits import Hits
from .infap import infAP
from .iprec import IPrec, IPrecAvg
from .judged import Judged, Unjudged
from .lag import LAG
from .ndcg import DCG, IDCG, RnDCG, nDCG, nDCGRel
from .normalized_gain import G
from .precision import P
from .rbp import RBP, RBPResidual
from .recall import R
from .rprec import Rprec
from .rr import RR
from .set_measures import SetAP, SetF, SetP, SetR
from .success import Success
from .utility import Utility

__all__ = ['AP', 'Bpref', 'IPrec', 'NumQ', 'NumRel', 'NumRet', 'P', 'R', 'RR', 'Rprec',
           'SetAP', 'SetF', 'SetP', 'SetR', 'Success', 'infAP', 'nDCG',
           'AUC', 'Accuracy', 'Compat', 'DCG', 'ERR', 'F1', 'Hits', 'Judged', 'LAG', 'RBP', 'RBPResidual',
           'nERR']
__all__ += ['BPM', 'INSQ', 'INST', 'NERR8', 'NERR9', 'NERR10', 'NERR11', 'SDCG',
            'AP_IA', 'ERR_IA', 'NRBP', 'P_IA', 'StRecall', 'alpha_DCG', 'alpha_nDCG', 'nERR_IA', 'nNRBP']
__all__ += ['ARP', 'Coverage', 'Gini', 'HeadRecall', 'ILD', 'Novelty', 'TailRecall', 'TailShare']
__all__ += ['G', 'IDCG', 'IPrecAvg', 'RnDCG', 'Unjudged', 'Utility', 'YAAP', 'nDCGRel']
