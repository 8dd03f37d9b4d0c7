"""Where the repository's files are, for tests in any folder of tests/."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / 'fixtures'          # vendored test data (tests/fixtures/README.md: each file's origin)
EXAMPLES = ROOT / 'examples'
