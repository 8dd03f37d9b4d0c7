"""The engines that compute measures, registered in preference order (native first).

Third-party engines are imported lazily inside their provider, so a missing
one only makes the registry fall back; ``import irmetrics`` never needs them.
"""
from ..core.provider import PROVIDERS
from .cwl_eval import CwlEvalProvider
from .native import NativeProvider
from .pyndeval import PyndevalProvider
from .pytrec_eval import PytrecEvalProvider
from .trectools import TrectoolsProvider

PROVIDERS.register(NativeProvider())
PROVIDERS.register(PytrecEvalProvider())
PROVIDERS.register(TrectoolsProvider())
PROVIDERS.register(CwlEvalProvider())
PROVIDERS.register(PyndevalProvider())
