"""tools/plot analysis on chapter 11's --analyze --format json: the ring's steps and the sample sort's exchange.

A synthetic document (built here with a few lines of Python: the ring schedule of ring.hpp, a small sample sort with
regular samples and (key, position) splitters) checks every figure anywhere; the real output of
build/bin/chapter_11_multigpu, when one is built, checks that the drawer reads what the chapter writes and that the
chapter's replay agrees with the model here.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                     write_json)


def ring(gpus: int) -> dict:
    """Stage 3's ring: at reduce-scatter step s GPU g receives chunk (g - s - 1) mod G from g - 1 and adds its own
    input; at all-gather step s it receives chunk (g - s) mod G and keeps it."""
    holds = [[[g] for _ in range(gpus)] for g in range(gpus)]
    start = copy.deepcopy(holds)
    steps = []
    for step in range(2 * (gpus - 1)):
        reduce = step < gpus - 1
        s = step if reduce else step - (gpus - 1)
        offset = 1 if reduce else 0
        before = copy.deepcopy(holds)
        moves = []
        for g in range(gpus):
            left, right = (g - 1) % gpus, (g + 1) % gpus
            receive, send = (g - s - offset) % gpus, (g - s - offset + 1) % gpus
            moves.append({"gpu": g, "from": left, "receives_chunk": receive, "to": right, "sends_chunk": send})
            partial = before[left][receive]
            holds[g][receive] = sorted(set(partial) | {g}) if reduce else list(partial)
        steps.append({"step": step, "phase": "reduce-scatter" if reduce else "all-gather", "moves": moves,
                      "holds": copy.deepcopy(holds)})
    return {"gpus": gpus, "chunks": gpus, "stage": "3", "start": start, "steps": steps,
            "owned": [(g + 1) % gpus for g in range(gpus)]}


def sample_sort(keys: list, gpus: int, samples: int) -> dict:
    """The sample sort of sort_plan.cpp's replay: parts sorted, regular samples (key, global position), splitter j
    the sample of rank j * valid / G, buckets under the (key, position) order, runs received in sender order."""
    n = len(keys)
    begin = [g * (n // gpus) + min(g, n % gpus) for g in range(gpus + 1)]
    parts = [keys[begin[g]:begin[g + 1]] for g in range(gpus)]
    ordered = [sorted(part) for part in parts]
    drawn = [[(ordered[g][((2 * i + 1) * len(ordered[g])) // (2 * samples)],
               begin[g] + ((2 * i + 1) * len(ordered[g])) // (2 * samples)) for i in range(samples)]
             for g in range(gpus)]
    gathered = sorted(sample for mine in drawn for sample in mine)
    splitters = [gathered[j * len(gathered) // gpus] for j in range(1, gpus)]
    counts = [[0] * gpus for _ in range(gpus)]
    for g in range(gpus):
        for i, key in enumerate(ordered[g]):
            counts[g][sum(1 for s in splitters if s <= (key, begin[g] + i))] += 1
    send = [[sum(counts[g][:d]) for d in range(gpus)] for g in range(gpus)]
    receive = [[sum(counts[s][d] for s in range(g)) for g in range(gpus)] for d in range(gpus)]
    outputs = [sorted(k for g in range(gpus) for k in ordered[g][send[g][d]:send[g][d] + counts[g][d]])
               for d in range(gpus)]
    shares = [len(o) for o in outputs]
    transfers = [{"from": g, "to": d, "keys": counts[g][d], "send_offset": send[g][d], "recv_offset": receive[d][g],
                  "kept": g == d} for g in range(gpus) for d in range(gpus) if counts[g][d]]
    return {"gpus": gpus, "keys_per_gpu": n // gpus, "samples_per_gpu": samples, "seed": 0, "largest_key": 99,
            "parts": parts, "sorted_parts": ordered,
            "samples": [[{"key": k, "position": p, "index": p - begin[g]} for k, p in drawn[g]] for g in range(gpus)],
            "splitters": [{"key": k, "position": p} for k, p in splitters], "counts": counts, "send_offsets": send,
            "recv_offsets": receive, "transfers": transfers, "outputs": outputs,
            "output_begin": [sum(shares[:d]) for d in range(gpus)],
            "load_balance": max(shares) * gpus / max(sum(shares), 1)}


KEYS = [41, 7, 93, 7, 58, 12, 66, 30, 7, 85, 24, 51, 99, 3, 47, 62, 18, 75, 36, 90, 5, 58, 71, 29, 44, 13, 80, 67,
        21, 52, 9, 38, 77, 60, 15, 95]


def synthetic(gpus: int = 3) -> dict:
    """A small document in the schema of analysis.cpp: the ring of @p gpus GPUs and 12 keys per GPU, 3 samples."""
    return {"analysis": "multigpu", "chapter": "11", "problem": "allreduce", "gpus": gpus, "gpus_given": True,
            "allreduce": {"rows": []}, "diagram_gpus": gpus, "ring": ring(gpus),
            "sort_exchange": sample_sort(KEYS[:12 * gpus], gpus, 3)}


class TheModelHere(unittest.TestCase):
    def test_every_gpu_ends_with_every_whole_chunk_and_the_sort_sorts(self):
        for gpus in range(1, 9):
            document = ring(gpus)
            last = document["steps"][-1]["holds"] if document["steps"] else document["start"]
            self.assertEqual(last, [[list(range(gpus))] * gpus] * gpus)
            if gpus > 1:
                owned = document["steps"][gpus - 2]["holds"]
                self.assertTrue(all(owned[g][(g + 1) % gpus] == list(range(gpus)) for g in range(gpus)))
        for gpus in (1, 2, 3):
            exchange = sample_sort(KEYS[:12 * gpus], gpus, 3)
            self.assertEqual([k for share in exchange["outputs"] for k in share], sorted(KEYS[:12 * gpus]))


@needs_matplotlib
class Synthetic(AnalysisTestCase):
    def test_ring_steps(self):
        self.assertDrawn(self.draw(synthetic(), "ring-steps"), "the ring all-reduce (stage 3) on 3 GPUs",
                         "reduce-scatter 2", "all-gather 2", "2+0", "all", "each GPU owns one whole chunk",
                         "2(G-1)/G = 4/3")

    def test_sort_exchange(self):
        document = synthetic()
        splitters = ", ".join(f"{s['key']}@{s['position']}" for s in document["sort_exchange"]["splitters"])
        self.assertDrawn(self.draw(document, "sort-exchange"), "the sample sort's exchange on 3 GPUs", splitters,
                         "counts: row g sends column d", "GPU 2's output [", "in sender order", "from 1", "draws 3 regular samples")

    def test_one_gpu_draws_without_steps(self):
        self.assertDrawn(self.draw(synthetic(1), "ring-steps"), "nothing travels")
        self.assertDrawn(self.draw(synthetic(1), "sort-exchange"), "none (one GPU)")

    def test_first_figure_by_default_and_titles_replaced(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"), "--title", "Ring", "--subtitle", "")
        self.assertEqual(code, 0, errors)

    def test_broken_documents_are_refused_in_one_line(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "ring", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws ring-steps, sort-exchange", errors)
        broken = copy.deepcopy(synthetic())
        del broken["ring"]["steps"][1]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "ring-steps", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("3 steps, not 2(G-1) = 4", errors)
        broken = copy.deepcopy(synthetic())
        broken["sort_exchange"]["counts"][1][0] += 1
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "sort-exchange", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("GPU 1's buckets hold 13 keys, its part 12", errors)
        beyond = dict(synthetic(), ring=None, sort_exchange=None, notes=["--gpus 9: the diagrams draw at most 8 GPUs"])
        source = write_json(self.folder.name, "beyond.json", beyond)
        code, errors = plot("analysis", source, "--figure", "ring-steps", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("holds no diagram (--gpus 9", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "sort-exchange")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_11_multigpu")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_11_multigpu is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTestCase):
    def test_every_figure_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--gpus", "4")
        self.assertEqual(document["ring"], ring(4))
        exchange = document["sort_exchange"]
        keys = [k for part in exchange["parts"] for k in part]
        model = sample_sort(keys, 4, exchange["samples_per_gpu"])
        for field in ("sorted_parts", "samples", "splitters", "counts", "send_offsets", "recv_offsets", "transfers",
                      "outputs", "output_begin"):
            self.assertEqual(exchange[field], model[field], field)
        self.assertDrawn(self.draw(document, "ring-steps"), "on 4 GPUs", "reduce-scatter 3", "all-gather 3", "3+0+1")
        self.assertDrawn(self.draw(document, "sort-exchange"), "24 keys per GPU", "GPU 3's output [")

    def test_without_gpus_the_diagrams_draw_four(self):
        document = analysis_of(_built_binary())
        self.assertEqual((document["gpus"], document["diagram_gpus"], document["ring"]["gpus"]), (2, 4, 4))


if __name__ == "__main__":
    unittest.main()
