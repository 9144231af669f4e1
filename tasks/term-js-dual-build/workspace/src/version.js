export const VERSION = '__TINYFMT_VERSION__';
