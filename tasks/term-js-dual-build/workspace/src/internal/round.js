// Rounds half away from zero to a number of decimal digits.
export default function round(value, digits = 0) {
  const f = 10 ** digits;
  const r = Math.round(Math.abs(value) * f) / f;
  return value < 0 ? -r : r;
}
