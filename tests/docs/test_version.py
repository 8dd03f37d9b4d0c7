"""The version is the same wherever it is written, and is the last release of CHANGELOG.md (no page speaks of
a version that was not released as if it were): pyproject.toml, irmetrics.__version__, getting-started, and the
migration page, which says that the 1.0 contract is not released yet while the version is below 1.0."""
import re

import tomllib
from repo_paths import ROOT

import irmetrics as irm


def test_the_version_is_the_last_release_and_the_pages_say_so():
    version = tomllib.loads((ROOT / 'pyproject.toml').read_text())['project']['version']
    releases = re.findall(r'^## \[(\d+\.\d+\.\d+)\]', (ROOT / 'CHANGELOG.md').read_text(), re.M)
    assert version == irm.__version__ == releases[0]
    assert f'version {version}' in (ROOT / 'docs' / 'getting-started.md').read_text()
    migration = (ROOT / 'docs' / 'migration.md').read_text()
    if int(version.split('.')[0]) < 1:
        assert f'This contract is not released yet: the version is still {version}' in migration
