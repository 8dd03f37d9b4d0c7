"""The engines that compute measures, registered in preference order (native first).

Third-party engines are registered by name and imported (with their library) only
when a job needs them, so a missing one only makes the registry fall back, and
``import irmetrics`` never imports them.
"""
from .base import PROVIDERS as PROVIDERS  # the registry, re-exported: the API room looks engines up in it
from .native import NativeProvider

PROVIDERS.register(NativeProvider())
PROVIDERS.register('irmetrics.providers.pytrec_eval:PytrecEvalProvider', 'pytrec_eval')
PROVIDERS.register('irmetrics.providers.trectools:TrectoolsProvider', 'trectools')
PROVIDERS.register('irmetrics.providers.cwl_eval:CwlEvalProvider', 'cwl_eval')
PROVIDERS.register('irmetrics.providers.pyndeval:PyndevalProvider', 'pyndeval')
