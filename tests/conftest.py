"""Shared test settings.

Hypothesis runs a moderate number of examples by default so that the whole
suite stays fast on a small machine; ``HYPOTHESIS_PROFILE=thorough`` runs many
more (for a nightly job or before a release).
"""
import os

from hypothesis import HealthCheck, settings

settings.register_profile('default', max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile('thorough', max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'default'))
