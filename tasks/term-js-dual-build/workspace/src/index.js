export * from './bytes.js';
export { formatDuration, formatClock, parseDuration as parse } from './duration.js';
export { default as plural } from './plural.js';
export { VERSION } from './version.js';
