/** A promise together with the functions that settle it. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  settled(): boolean;
}

export function deferred<T>(): Deferred<T> {
  let done = false;
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = (v) => {
      done = true;
      res(v);
    };
    reject = (e) => {
      done = true;
      rej(e);
    };
  });
  return { promise, resolve, reject, settled: () => done };
}
