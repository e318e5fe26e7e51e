// Exercise 02-2, solved. With w-word accesses a phase holds 32 / w lanes, lane l's first word is
// l*VT + i*w, and the phase's lanes cover 32 / w * w = 32 words: lanes 32 / gcd(VT, 32) apart meet in a
// bank, so the degree is gcd(VT, 32) / w (w divides VT, so it divides the gcd too: at least 1). An
// access has w phases, each (degree - 1) wavefronts over its ideal; a thread makes VT / w of them, so
// each warp counts VT * (degree - 1) conflicts per transpose, whatever the width, and the tile NT / 32 times that.
#include <numeric>

#include "02_transpose.hpp"

namespace stepwise::scan::exercises {

TransposePrediction predict_transpose(int nt, int vt, int width_words) {
  TransposePrediction prediction;
  prediction.instructions = vt / width_words;
  prediction.degree = std::gcd(vt, 32) / width_words;
  prediction.conflicts_per_tile = static_cast<long long>(nt / 32) * vt * (prediction.degree - 1);
  return prediction;
}

}  // namespace stepwise::scan::exercises
