/** Entry point of `bahi`; replaced by the real CLI. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] !== 'extract') {
    process.stderr.write('usage: bahi extract [--type invoice|po|grn] [--jobs N] FILE...\n');
    return 2;
  }
  return 0;
}
