"""What the comparison package takes from the rest of irmetrics (the API and the rendering room).

The package sits on the public API only (the evaluator, measures and their parser, results, run
inputs, errors); every other module of :mod:`irmetrics.comparing` imports those names from here, so
a reorganisation of the core changes this file alone.
"""
from __future__ import annotations

from ..algebra.measure import Measure
from ..api.argument_order import measures_first
from ..api.evaluator import Evaluator
from ..api.options import EvaluationOptions, Options
from ..api.results import aggregate
from ..api.run_names import default_names, find_run
from ..constraints import Choice, Float, Int, Option
from ..data.budget import memory_budget
from ..data.inputs import looks_like_data, source_path, to_run
from ..data.items import Items
from ..dialects import parse_measures
from ..errors import ComparisonError, InputError, IrmetricsError, MeasureError, OptionError, recorded_warnings, warn
from ..rendering.figures import figure_svg
from ..rendering.formats import checked_format, checked_places
from ..rendering.markup import (
    html_escape,
    html_page,
    html_table,
    latex_escape,
    latex_tabular,
    markdown_escape,
    markdown_table,
)
from ..rendering.records import Cell, render_document, render_records
from ..rendering.result import Table, Tabled
from ..rendering.text import printable, text_table
from ..rendering.values import format_value, json_number, number

__all__ = ['Choice', 'ComparisonError', 'EvaluationOptions', 'Evaluator', 'Float', 'Int', 'Items', 'Option',
           'Options', 'InputError', 'measures_first', 'checked_format', 'checked_places', 'recorded_warnings',
           'html_escape', 'json_number', 'latex_tabular', 'number',
           'IrmetricsError', 'Measure', 'MeasureError', 'OptionError', 'aggregate', 'default_names', 'figure_svg',
           'find_run', 'format_value', 'html_page', 'html_table', 'latex_escape', 'looks_like_data', 'markdown_escape',
           'markdown_table', 'memory_budget', 'parse_measures', 'printable', 'source_path', 'Table', 'Tabled',
           'text_table', 'to_run', 'warn', 'render_records', 'Cell', 'render_document']
