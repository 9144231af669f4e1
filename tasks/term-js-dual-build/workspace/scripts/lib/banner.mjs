// The comment each built file starts with.
export function banner({ name, version, file }) {
  return `/*! ${name} v${version} | ${file} */\n`;
}
