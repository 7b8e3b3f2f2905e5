import type { TestFn } from 'ava';
import { TranslatorError, type Translator } from '../ports/translator';

export interface TranslatorHarness {
  /** Prefix of every test title. */
  name: string;
  /** A client of the adapter under test, pointed at the service (a local stand-in speaking its HTTP API in tests). */
  create(): Translator | Promise<Translator>;
  /** A client whose credentials the service refuses. */
  createRefused(): Translator | Promise<Translator>;
  /** What the stand-in answers for `text` translated into `to` (the suite cannot judge real translations). */
  expected(text: string, from: string, to: string): string;
  /** How many translation requests the stand-in has received. */
  calls(): number;
}

/**
 * The translator port's contract (docs/languages.md "auto_translate"): many texts in one call, in order and
 * number, unicode and right-to-left languages intact, regional tags accepted, an empty list answered without a
 * call, a refusal of the service as TranslatorError with its status.
 */
export function translatorConformance(test: TestFn, harness: TranslatorHarness) {
  const name = (s: string) => `${harness.name}: ${s}`;
  test.serial(name('translates many texts in order, in one call'), async (t) => {
    const translator = await harness.create();
    const texts = ['Your name', 'Favourite colour', 'Red', 'Thanks, {respondent.name}!'];
    const before = harness.calls();
    t.deepEqual(await translator.translate(texts, 'en', 'de'), texts.map((x) => harness.expected(x, 'en', 'de')));
    t.is(harness.calls() - before, 1);
    t.not(translator.id, 'none');
  });
  test.serial(name('right-to-left and regional languages'), async (t) => {
    const translator = await harness.create();
    t.deepEqual(await translator.translate(['Blue'], 'en', 'ar'), [harness.expected('Blue', 'en', 'ar')]);
    t.deepEqual(await translator.translate(['Olá'], 'pt-BR', 'en'), [harness.expected('Olá', 'pt-BR', 'en')]);
  });
  test.serial(name('an empty list makes no call'), async (t) => {
    const translator = await harness.create();
    const before = harness.calls();
    t.deepEqual(await translator.translate([], 'en', 'de'), []);
    t.is(harness.calls(), before);
  });
  test.serial(name("the service's refusal is a TranslatorError with its status"), async (t) => {
    const translator = await harness.createRefused();
    const e = await t.throwsAsync(translator.translate(['Hello'], 'en', 'de'));
    t.true(e instanceof TranslatorError, String(e));
    t.true((e as TranslatorError).status >= 400, String((e as TranslatorError).status));
  });
}
