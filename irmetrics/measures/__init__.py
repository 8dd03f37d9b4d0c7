"""Measure definitions, one module per family.  Definitions only: no computation here.

Importing this package registers every definition in the measure registry.
"""
from .ap import AP
from .bpref import Bpref
from .counts import NumQ, NumRel, NumRet
from .infap import infAP
from .iprec import IPrec
from .ndcg import nDCG
from .precision import P
from .recall import R
from .rprec import Rprec
from .rr import RR
from .set_measures import SetAP, SetF, SetP, SetR
from .success import Success

__all__ = ['AP', 'Bpref', 'IPrec', 'NumQ', 'NumRel', 'NumRet', 'P', 'R', 'RR', 'Rprec',
           'SetAP', 'SetF', 'SetP', 'SetR', 'Success', 'infAP', 'nDCG']
