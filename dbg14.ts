import { SHAPE_CASES, runCase } from './bench/triggerShapes';
(async () => {
  const c = SHAPE_CASES.find((s) => s.name.startsWith(process.env.CASE!))!;
  await runCase(c, Number(process.env.EVERY), 1, 7);
})();
