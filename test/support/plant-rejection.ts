// Loaded with `--import` into `npm start` by test/processes/unhandled-rejections.test.ts: each
// SIGUSR2 rejects a promise nothing handles, as a defect would.
process.on("SIGUSR2", () => {
  void Promise.reject(new Error("planted by the test"));
});
