export type Fields = Record<string, unknown>;

function emit(level: string, msg: string, fields?: Fields): void {
  const record = { time: Date.now(), level, msg, ...fields };
  (level === 'error' ? console.error : console.log)(JSON.stringify(record));
}

export const log = {
  info: (msg: string, fields?: Fields) => emit('info', msg, fields),
  warn: (msg: string, fields?: Fields) => emit('warn', msg, fields),
  error: (msg: string, fields?: Fields) => emit('error', msg, fields),
};
