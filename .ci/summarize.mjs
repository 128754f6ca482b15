// Prints `N passed, N failed` from vitest JSON reports; exits non-zero when a test failed,
// none ran, or a report is missing (a typecheck or build failure stops vitest before it).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`ci: no test report at ${file} (the build or typecheck failed before vitest ran)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const reportFailed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  passed += report.numPassedTests ?? 0;
  // A run that failed without a failed test (an error outside tests) still counts once.
  failed += reportFailed > 0 || report.success !== false ? reportFailed : 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
