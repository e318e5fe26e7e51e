"""tools/plot analysis on chapter 05's --analyze --format json: the peers and sub-tree diagrams.

A synthetic document (the talk's examples worked here in a few lines of Python: the ballot loop and
the sub-tree schedule of common/algorithm/warp_aggregate.hpp) checks both figures anywhere; the real output of
build/bin/chapter_05_atomics, when it is built, checks that the drawer reads what the chapter writes.
"""
import copy
import os
import unittest

from support import (analysis_of, AnalysisTestCase, chapter_binary, drawn_bytes_by_hash_seed, needs_matplotlib, plot,
                    svg_texts, write_json)

TALK_KEYS = [2, 3, 3, 1, 2, 3, 1, 2]
WIDE_KEYS = [1, 2, 2, 3, 1, 2, 3, 1, 2, 3, 1, 3, 1, 1, 2, 3]
WIDE_VALUES = [9, 8, 2, 6, 2, 7, 1, 4, 7, 6, 1, 8, 7, 8, 4, 7]


def _bits(mask: int, lanes: int) -> str:
    return "".join("1" if mask >> lane & 1 else "0" for lane in reversed(range(lanes)))


def ballot(keys: list) -> dict:
    """The ballot loop, as ballot_loop replays it."""
    lanes = len(keys)
    unassigned = (1 << lanes) - 1
    iterations, peers = [], [0] * lanes
    while unassigned:
        leader = (unassigned & -unassigned).bit_length() - 1
        vote = sum(1 << lane for lane in range(lanes) if unassigned >> lane & 1 and keys[lane] == keys[leader])
        iterations.append({"leader": leader, "key": keys[leader], "unassigned": unassigned, "ballot": vote,
                           "ballot_bits": _bits(vote, lanes)})
        for lane in range(lanes):
            if vote >> lane & 1:
                peers[lane] = vote
        unassigned ^= vote
    return {"lanes": lanes, "keys": keys, "iterations": iterations, "peers": peers, "source": "test"}


def subtree(keys: list, values: list) -> dict:
    """The sub-tree reduction, as SubtreeLane schedules it."""
    lanes = len(keys)
    peers = [sum(1 << other for other in range(lanes) if keys[other] == keys[lane]) for lane in range(lanes)]
    ranks = [bin(peers[lane] & ((1 << lane) - 1)).count("1") for lane in range(lanes)]
    remaining = [peers[lane] & ~((2 << lane) - 1) for lane in range(lanes)]
    rank = list(ranks)
    current, rounds, taken_before = list(values), [], 0
    while any(remaining):
        after, adds, taken = list(current), [], 0
        for lane in range(lanes):
            if rank[lane] & 1:
                taken |= 1 << lane
            if remaining[lane]:
                source = (remaining[lane] & -remaining[lane]).bit_length() - 1
                after[lane] = current[lane] + current[source]
                adds.append({"lane": lane, "source": source,
                             "used": not (taken_before >> lane & 1) and not rank[lane] & 1})
        for lane in range(lanes):
            remaining[lane] &= ~taken
            rank[lane] >>= 1
        taken_before |= taken
        rounds.append({"adds": adds, "taken": taken, "values": after})
        current = after
    leaders = [{"lane": lane, "key": keys[lane], "peers": peers[lane], "sum": current[lane]}
               for lane in range(lanes) if ranks[lane] == 0]
    return {"source": "test", "lanes": lanes, "keys": keys, "peers": peers, "ranks": ranks, "values": values,
            "rounds": rounds, "leaders": leaders}


def synthetic() -> dict:
    """A document in the schema of analyze_json (chapters/05_atomics/analysis.cpp)."""
    return {"analysis": "atomics-peers", "chapter": "05", "warp_size": 32, "ballot_example": ballot(TALK_KEYS),
            "subtree_small": subtree(TALK_KEYS, [10 * (lane + 1) for lane in range(8)]),
            "subtree_example": subtree(WIDE_KEYS, WIDE_VALUES),
            "keys": {"n": 64, "tiles": 2, "stages": []}}


class TheModelHere(unittest.TestCase):
    def test_the_talk_s_numbers(self):
        example = ballot(TALK_KEYS)
        self.assertEqual([it["ballot"] for it in example["iterations"]], [0x91, 0x26, 0x48])
        self.assertEqual(example["iterations"][1]["ballot_bits"], "00100110")
        wide = subtree(WIDE_KEYS, WIDE_VALUES)
        self.assertEqual(len(wide["rounds"]), 3)
        self.assertEqual([leader["sum"] for leader in wide["leaders"]], [31, 28, 28])
        self.assertEqual(wide["rounds"][0]["values"][5], 14)  # slide 20: lane 5, 7 + 7


AnalysisTest = AnalysisTestCase

@needs_matplotlib
class Synthetic(AnalysisTest):
    def test_peers(self):
        texts = self.draw(synthetic(), "peers")
        self.assertDrawn(texts, "finding peers with the ballot loop (8 lanes, Westphal's example)",
                         "lane 0 leads, key 2: __ballot_sync = 10010001 = 0x91",
                         "lane 1 leads, key 3: __ballot_sync = 00100110 = 0x26",
                         "lane 3 leads, key 1: __ballot_sync = 01001000 = 0x48", "0x91", "iteration 3", "peers",
                         "lane 0 on the right")

    def test_subtree(self):
        texts = self.draw(synthetic(), "subtree")
        self.assertDrawn(texts, "the sub-tree reduction of Westphal's 16-lane example", "round 3",
                         "lane 0 (key 1): 31", "lane 1 (key 2): 28", "lane 3 (key 3): 28",
                         "3 atomics instead of 16", "slides 19-20")

    def test_first_figure_by_default_and_titles_replaced(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "-o", self.path("default.svg"), "--title", "Peers", "--subtitle", "")
        self.assertEqual(code, 0, errors)
        texts = svg_texts(self.path("default.svg"))
        self.assertIn("Peers", texts)
        self.assertIn("iteration 1", "\n".join(texts))
        self.assertNotIn("slides 9-15", "\n".join(texts))

    def test_unknown_figure_and_broken_documents_are_refused(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        code, errors = plot("analysis", source, "--figure", "tree", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("this document draws peers, subtree", errors)
        broken = copy.deepcopy(synthetic())
        del broken["subtree_example"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "peers", "-o", self.path("x.svg"))
        self.assertEqual((code, errors.count("\n")), (2, 1))
        self.assertIn("has no 'subtree_example'", errors)
        broken = copy.deepcopy(synthetic())
        del broken["subtree_example"]["rounds"][1]["taken"]
        source = write_json(self.folder.name, "broken.json", broken)
        code, errors = plot("analysis", source, "--figure", "subtree", "-o", self.path("x.svg"))
        self.assertEqual(code, 2)
        self.assertIn("round 2 of the sub-tree has no 'taken'", errors)
        self.assertFalse(os.path.exists(self.path("x.svg")))

    def test_same_input_same_bytes(self):
        source = write_json(self.folder.name, "analysis.json", synthetic())
        outputs = drawn_bytes_by_hash_seed(source, self.folder.name, "--figure", "subtree")
        self.assertEqual(outputs[0], outputs[1])


def _built_binary():
    return chapter_binary("chapter_05_atomics")


@needs_matplotlib
@unittest.skipUnless(_built_binary(), "chapter_05_atomics is not built (STEPWISE_BIN_DIR or build/bin)")
class RealOutput(AnalysisTest):
    def test_both_figures_from_the_chapter(self):
        document = analysis_of(_built_binary(), "--n", "4096")
        self.assertEqual(document["ballot_example"], {**ballot(TALK_KEYS), "source": document["ballot_example"]["source"]})
        self.assertEqual(document["subtree_example"]["rounds"], subtree(WIDE_KEYS, WIDE_VALUES)["rounds"])
        self.assertDrawn(self.draw(document, "peers"), "__ballot_sync = 10010001 = 0x91")
        self.assertDrawn(self.draw(document, "subtree"), "lane 0 (key 1): 31", "3 atomics instead of 16")


if __name__ == "__main__":
    unittest.main()
