"""mkdocs hooks: the docstrings use Sphinx roles (:class:`Evaluator`); in the rendered pages a role shows
as its code text alone, without the role's name in front."""
import re

_ROLE = re.compile(r':(?:class|func|meth|mod|data|attr|exc):\s*(?=<code)')


def on_page_content(html, **kwargs):
    return _ROLE.sub('', html)
