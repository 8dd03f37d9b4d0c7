"""Bridges into the tools users already run: irmetrics as an engine of ir_measures, and so of PyTerrier.

The bridge module imports its tool (``ir_measures``), so nothing imports it but
:func:`use_in_ir_measures`, and only when called: ``import irmetrics`` stays light, and ir_measures
stays an optional extra (``pip install "irmetrics[ir_measures]"``).
"""
from __future__ import annotations


def use_in_ir_measures(enable: bool = True, *, duplicates: str = 'error') -> None:
    """Make ir_measures compute through irmetrics (``enable=False``: undo it).

    Registers a provider named ``'irmetrics'`` in ``ir_measures.providers.registry`` and puts it first
    in ``ir_measures.DefaultPipeline``, so ``ir_measures.calc_aggregate``, ``iter_calc``,
    ``evaluator`` and everything built on them (PyTerrier's ``pt.Experiment`` and ``pt.Evaluate``)
    compute the measures irmetrics supports with irmetrics' conventions; ir_measures' own providers
    keep the others.  Calling it again replaces the settings; see docs/integrations.md.  Needs
    ``pip install "irmetrics[ir_measures]"``.

    Parameters
    ----------
    enable : bool
        True: install the provider; False: remove it.
    duplicates : str
        What a run that retrieves a document twice for a query gets: an error (``"error"``, irmetrics'
        default), or ``"first"``, ``"last"`` (ir_measures' silent choice) or ``"max"``.

    Returns
    -------
    None

    Examples
    --------
    >>> import ir_measures
    >>> irmetrics.use_in_ir_measures()
    >>> ir_measures.calc_aggregate([ir_measures.AP], ir_measures.read_trec_qrels('examples/qrels.txt'),
    ...                            ir_measures.read_trec_run('examples/run_bm25.txt'))
    {AP: 0.4086513386923678}
    >>> irmetrics.use_in_ir_measures(False)
    """
    from . import ir_measures as bridge
    if enable:
        bridge.install(duplicates)
    else:
        bridge.uninstall()
