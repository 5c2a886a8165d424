#include "claimrag/kernels/adam_update.hpp"

#include <immintrin.h>

#include <cmath>


// The vector versions are written in intrinsics, one per operation of the portable expression,
// so no compiler contraction into fused multiply-adds can change a bit.

namespace claimrag::kernels {
namespace {

struct Constants {
  float beta1, beta2, one_minus_beta1, one_minus_beta2, step_size, root_correction2, epsilon, decay;
};

Constants constants_of(const AdamStep& step) {
  return {step.beta1,     step.beta2,           1.0F - step.beta1, 1.0F - step.beta2,
          step.step_size, step.root_correction2, step.epsilon,      step.weight_decay};
}

template <bool WithDecay>
void update_portable(const Constants& c, float* value, float* first, float* second, const float* gradient,
                     std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const float g = WithDecay ? gradient[i] + c.decay * value[i] : gradient[i];
    const float m = c.beta1 * first[i] + c.one_minus_beta1 * g;
    const float v = c.beta2 * second[i] + c.one_minus_beta2 * (g * g);
    first[i] = m;
    second[i] = v;
    value[i] -= (c.step_size * m) / (std::sqrt(v) / c.root_correction2 + c.epsilon);
  }
}

// _mm512_sqrt_ps through its all-lanes mask: GCC 12 warns, falsely, that the unmasked form reads an
// uninitialised register.
__attribute__((target("avx512f"))) inline __m512 sqrt_avx512(__m512 v) {
  return _mm512_maskz_sqrt_ps(static_cast<__mmask16>(0xFFFF), v);
}

template <bool WithDecay>
__attribute__((target("avx512f"))) void update_avx512(const Constants& c, float* value, float* first, float* second,
                                                       const float* gradient, std::size_t n) {
  const __m512 beta1 = _mm512_set1_ps(c.beta1), beta2 = _mm512_set1_ps(c.beta2);
  const __m512 one_minus_beta1 = _mm512_set1_ps(c.one_minus_beta1), one_minus_beta2 = _mm512_set1_ps(c.one_minus_beta2);
  const __m512 step_size = _mm512_set1_ps(c.step_size), root_correction2 = _mm512_set1_ps(c.root_correction2);
  const __m512 epsilon = _mm512_set1_ps(c.epsilon), decay = _mm512_set1_ps(c.decay);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(value + i);
    __m512 g = _mm512_loadu_ps(gradient + i);
    if constexpr (WithDecay) g = _mm512_add_ps(g, _mm512_mul_ps(decay, x));
    const __m512 m = _mm512_add_ps(_mm512_mul_ps(beta1, _mm512_loadu_ps(first + i)), _mm512_mul_ps(one_minus_beta1, g));
    const __m512 v = _mm512_add_ps(_mm512_mul_ps(beta2, _mm512_loadu_ps(second + i)),
                                   _mm512_mul_ps(one_minus_beta2, _mm512_mul_ps(g, g)));
    _mm512_storeu_ps(first + i, m);
    _mm512_storeu_ps(second + i, v);
    const __m512 denominator = _mm512_add_ps(_mm512_div_ps(sqrt_avx512(v), root_correction2), epsilon);
    _mm512_storeu_ps(value + i, _mm512_sub_ps(x, _mm512_div_ps(_mm512_mul_ps(step_size, m), denominator)));
  }
  update_portable<WithDecay>(c, value, first, second, gradient, i, n);
}

template <bool WithDecay>
__attribute__((target("avx2"))) void update_avx2(const Constants& c, float* value, float* first, float* second,
                                                  const float* gradient, std::size_t n) {
  const __m256 beta1 = _mm256_set1_ps(c.beta1), beta2 = _mm256_set1_ps(c.beta2);
  const __m256 one_minus_beta1 = _mm256_set1_ps(c.one_minus_beta1), one_minus_beta2 = _mm256_set1_ps(c.one_minus_beta2);
  const __m256 step_size = _mm256_set1_ps(c.step_size), root_correction2 = _mm256_set1_ps(c.root_correction2);
  const __m256 epsilon = _mm256_set1_ps(c.epsilon), decay = _mm256_set1_ps(c.decay);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(value + i);
    __m256 g = _mm256_loadu_ps(gradient + i);
    if constexpr (WithDecay) g = _mm256_add_ps(g, _mm256_mul_ps(decay, x));
    const __m256 m = _mm256_add_ps(_mm256_mul_ps(beta1, _mm256_loadu_ps(first + i)), _mm256_mul_ps(one_minus_beta1, g));
    const __m256 v = _mm256_add_ps(_mm256_mul_ps(beta2, _mm256_loadu_ps(second + i)),
                                   _mm256_mul_ps(one_minus_beta2, _mm256_mul_ps(g, g)));
    _mm256_storeu_ps(first + i, m);
    _mm256_storeu_ps(second + i, v);
    const __m256 denominator = _mm256_add_ps(_mm256_div_ps(_mm256_sqrt_ps(v), root_correction2), epsilon);
    _mm256_storeu_ps(value + i, _mm256_sub_ps(x, _mm256_div_ps(_mm256_mul_ps(step_size, m), denominator)));
  }
  update_portable<WithDecay>(c, value, first, second, gradient, i, n);
}

// The scalar version over a whole array, the signature the vector ones have.
template <bool WithDecay>
void update_scalar(const Constants& c, float* value, float* first, float* second, const float* gradient,
                   std::size_t n) {
  update_portable<WithDecay>(c, value, first, second, gradient, 0, n);
}

template <bool WithDecay>
void update_on(VectorUnit unit, const Constants& c, float* value, float* first, float* second, const float* gradient,
               std::size_t n) {
  for_unit(unit, &update_scalar<WithDecay>, &update_avx2<WithDecay>, &update_avx512<WithDecay>, "Adam update")(
      c, value, first, second, gradient, n);
}

}  // namespace

void adam_update(const AdamStep& step, float* value, float* first, float* second, const float* gradient, std::size_t n,
                 VectorUnit unit) {
  const Constants c = constants_of(step);
  if (step.with_decay) {
    update_on<true>(unit, c, value, first, second, gradient, n);
  } else {
    update_on<false>(unit, c, value, first, second, gradient, n);
  }
}

void adam_update(const AdamStep& step, float* value, float* first, float* second, const float* gradient,
                 std::size_t n) {
  adam_update(step, value, first, second, gradient, n, best_vector_unit());
}

}  // namespace claimrag::kernels
