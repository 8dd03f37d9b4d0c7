"""The score matrices of the array tests (tests/api/test_array_runs.py on the host, tests/api/test_cuda.py on a GPU):
random judgments and scores with ties, masked items and empty users, written also as the TREC files whose numbers
the arrays must give."""
import numpy as np

#: every family of the hit matrix, with each parameter it reads away from its default, and measures it leaves to
#: the engine of TREC runs (a parameter it does not read, a family it has no formula for)
ON_HITS = ['P@5', 'P(rel=2)@3', 'P(relative=True)@7', 'R@20', 'R(rel=2)@4', 'Hits@6', 'Success@3', 'Success(rel=3)@9',
           'RR@10', 'RR(rel=2)@2', 'AP@15', 'AP(rel=2)@8', "AP(divisor='num_rel_ret')@12", 'DCG@4', 'nDCG@10',
           "nDCG(dcg='exp-log2')@5", 'nDCG(gains={1:1,2:5,3:20})@8', 'Judged@5']
ON_HOST = ["nDCG(ties='expected')@5", "RR(ties='expected')", 'Coverage(catalogue=200)@10']
#: the measures a score matrix gives from its judged items' ranks (every native family that reads no more, with
#: and without a cutoff, parameters away from their defaults); a top-k array leaves them to the engine of TREC runs
ON_POSITIONS = ['RR', 'RR(rel=2)', 'RR(judged_only=True)', 'AP', 'AP(rel=2)', "AP(divisor='num_rel_ret')", 'YAAP',
                'Rprec', 'Rprec(mult=2)', 'Bpref', 'infAP', 'nDCG', 'nDCG(judged_only=True)', "nDCG(dcg='exp-log2')",
                'NumRet', 'NumRet(rel=1)', 'NumRel', 'NumQ', 'RBP(p=0.8)', 'ERR', 'ERR@5', 'IPrec@0.3', 'IPrecAvg',
                'R(judged_only=True)@30', 'P(judged_only=True)@5', 'SetP', 'SetF', 'LAG@5', 'Compat', 'Utility',
                'AUC', 'G', 'F1@10', 'Accuracy@5', 'Unjudged@10', 'alpha_nDCG@10']


def trec_files(grades, scores):
    users, items = np.nonzero(grades)
    qrels = ''.join(f'{u} 0 {i} {grades[u, i]}\n' for u, i in zip(users, items, strict=True))
    run = ''.join(f'{u} Q0 {i} 0 {float(scores[u, i])!r} t\n' for u in range(scores.shape[0])
                  for i in range(scores.shape[1]) if scores[u, i] > -np.inf)
    return qrels, run


def random_case(seed):
    rng = np.random.default_rng(seed)
    users, items = int(rng.integers(5, 60)), int(rng.integers(12, 140))
    grades = rng.choice([0] * 10 + [-1, 1, 2, 3], size=(users, items))
    grades[0] = 0                                                       # a user without judgments
    scores = (rng.integers(0, 4, size=(users, items)) / 2).astype(rng.choice([np.float32, np.float64]))
    scores[rng.random(scores.shape) < 0.15] = -np.inf                  # masked items
    scores[1] = -np.inf                                                 # a user who ranks nothing
    scores[2, :3] = -0.0
    return grades, scores


def integer_case(dtype, seed=0):
    """Integer scores around 2^53 (2^53 + 1 is 2^53 as a double), 2^63 and below 0, with ties everywhere."""
    rng = np.random.default_rng(seed)
    pool = ([2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 2, -2 ** 53 - 1, -2 ** 53, -2 ** 63, 2 ** 63 - 1, 0]
            if dtype == np.int64 else [2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 63 + 1, 2 ** 64 - 1, 7])
    grades = rng.choice([0, 0, 1, 2], size=(25, 30))
    scores = rng.choice(np.array(pool, dtype=dtype), size=grades.shape)
    scores[0], grades[0] = 0, 0
    scores[0, :2], grades[0, 1] = (2 ** 53 + 1, 2 ** 53), 1     # exactly, item 0 first; as doubles, tied: item 1
    scores[1], grades[1] = min(pool), 0
    scores[1, 3], grades[1, 3] = (2 ** 63 if dtype == np.uint64 else -2 ** 53 - 1), 1     # first (uint64: not cast)
    return grades, scores
