export default function plural(count, one, many = `${one}s`) {
  return `${count} ${Math.abs(count) === 1 ? one : many}`;
}
