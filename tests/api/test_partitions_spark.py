"""The Spark recipe of docs/scaling.md: the partition function through ``groupBy(...).applyInPandas``.

The run's rows are grouped by a bucket of their query id, so that each group holds complete queries;
each group is evaluated by ``Partitions.calc`` on an executor and ``Partitions.combine`` joins
the per-query values: the in-memory numbers, to the last bit.  Skipped without pyspark or Java.
"""
import os
import shutil
import sys
import warnings

import pandas as pd
import pytest
from scale_support import FAMILY_MEASURES, assert_same_results, collection

import irmetrics as irm

pyspark = pytest.importorskip('pyspark')
# pyspark's own pandas calls, under pandas 3 (not irmetrics')
pytestmark = pytest.mark.filterwarnings('ignore:The copy keyword is deprecated')
if shutil.which('java') is None:
    pytest.skip('Spark needs Java', allow_module_level=True)


@pytest.fixture(scope='module')
def spark():
    from pyspark.sql import SparkSession
    os.environ['PYSPARK_PYTHON'] = sys.executable              # executors run this Python (and its irmetrics)
    warnings.filterwarnings('ignore', message='PySpark does not yet fully support pandas', category=FutureWarning)
    session = (SparkSession.builder.master('local[2]').appName('irmetrics-tests')
               .config('spark.ui.enabled', 'false').config('spark.sql.shuffle.partitions', '4')
               .config('spark.executorEnv.PYTHONPATH', os.pathsep.join(sys.path)).getOrCreate())
    yield session
    session.stop()


def run_frame(run_text: str) -> pd.DataFrame:
    fields = [line.split() for line in run_text.splitlines()]
    return pd.DataFrame({'qid': [f[0] for f in fields], 'docno': [f[2] for f in fields],
                         'score': [float(f[4]) for f in fields]})


def test_the_spark_recipe_gives_the_in_memory_numbers(spark):
    from pyspark.sql import functions as F
    qrels_text, run_text = collection(seed=29, duplicates=6)
    qrels = irm.read_trec_qrels(qrels_text, duplicates='max')
    frame = run_frame(run_text)
    want = irm.calc(FAMILY_MEASURES, qrels, frame, duplicates='max')

    parts = irm.Partitions(irm.evaluator(FAMILY_MEASURES, qrels))
    shared = spark.sparkContext.broadcast(parts)                 # the qrels, prepared once, on every executor
    run = spark.createDataFrame(frame)
    per_query = (run.withColumn('bucket', F.pmod(F.hash('qid'), F.lit(8)))
                 .groupBy('bucket')
                 .applyInPandas(lambda part: shared.value.calc(part, duplicates='max'), schema=parts.schema))
    assert_same_results(parts.combine(per_query.toPandas()), want)
