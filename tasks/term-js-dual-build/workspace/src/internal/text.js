export function pad(n, width = 2) {
  return String(n).padStart(width, '0');
}

export function trimZeros(s) {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}
