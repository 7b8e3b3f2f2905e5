/**
 * The sentence a voice's free preview speaks, in the voice's language (docs/voice.md, "Previews"). Languages
 * without a written sentence here say their own name and count to five: every engine reads digits in the
 * voice's language, so the preview is still in that language rather than English with an accent.
 */
const SENTENCES: Record<string, string> = {
  af: 'Hallo, dit is my stem. Dankie dat jy luister.',
  ar: 'مرحبا، هذا هو صوتي. شكرا على الاستماع.',
  bg: 'Здравейте, това е моят глас. Благодаря, че слушате.',
  ca: 'Hola, aquesta és la meva veu. Gràcies per escoltar.',
  cs: 'Dobrý den, toto je můj hlas. Děkuji za poslech.',
  da: 'Hej, dette er min stemme. Tak fordi du lytter.',
  de: 'Hallo, das ist meine Stimme. Danke fürs Zuhören.',
  el: 'Γεια σας, αυτή είναι η φωνή μου. Ευχαριστώ που με ακούτε.',
  en: 'Hello, this is my voice. Thank you for listening.',
  eo: 'Saluton, jen mia voĉo. Dankon pro la aŭskultado.',
  es: 'Hola, esta es mi voz. Gracias por escuchar.',
  fi: 'Hei, tämä on minun ääneni. Kiitos kun kuuntelet.',
  fr: 'Bonjour, voici ma voix. Merci de votre écoute.',
  he: 'שלום, זה הקול שלי. תודה שהקשבתם.',
  hi: 'नमस्ते, यह मेरी आवाज़ है। सुनने के लिए धन्यवाद।',
  hr: 'Bok, ovo je moj glas. Hvala na slušanju.',
  hu: 'Helló, ez az én hangom. Köszönöm, hogy meghallgattál.',
  id: 'Halo, ini suara saya. Terima kasih sudah mendengarkan.',
  it: "Ciao, questa è la mia voce. Grazie per l'ascolto.",
  ja: 'こんにちは、これは私の声です。聞いてくれてありがとう。',
  ko: '안녕하세요, 이것은 제 목소리입니다. 들어 주셔서 감사합니다.',
  ms: 'Helo, ini suara saya. Terima kasih kerana mendengar.',
  nb: 'Hei, dette er stemmen min. Takk for at du lytter.',
  nl: 'Hallo, dit is mijn stem. Bedankt voor het luisteren.',
  pl: 'Cześć, to jest mój głos. Dziękuję za wysłuchanie.',
  pt: 'Olá, esta é a minha voz. Obrigado por ouvir.',
  ro: 'Bună ziua, aceasta este vocea mea. Vă mulțumesc pentru atenție.',
  ru: 'Здравствуйте, это мой голос. Спасибо, что слушаете.',
  sk: 'Dobrý deň, toto je môj hlas. Ďakujem za pozornosť.',
  sv: 'Hej, det här är min röst. Tack för att du lyssnar.',
  sw: 'Habari, hii ni sauti yangu. Asante kwa kusikiliza.',
  tr: 'Merhaba, bu benim sesim. Dinlediğiniz için teşekkürler.',
  uk: 'Привіт, це мій голос. Дякую, що слухаєте.',
  vi: 'Xin chào, đây là giọng nói của tôi. Cảm ơn bạn đã lắng nghe.',
  zh: '你好，这是我的声音。谢谢你的收听。',
};

/** Counting, read by the engine in the voice's own language. */
const COUNTING = '1, 2, 3, 4, 5.';

/** The language's name in itself (`de` -> `Deutsch`), or null when the runtime only knows another name. */
function autonym(primary: string): string | null {
  try {
    const own = new Intl.DisplayNames([primary], { type: 'language', fallback: 'none' }).of(primary);
    const english = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(primary);
    return own && own !== english && own !== primary ? own : null;
  } catch {
    return null;
  }
}

/** The preview sentence of a voice whose language is the BCP 47 tag `languageCode`. */
export function previewText(languageCode: string): string {
  const primary = languageCode.toLowerCase().split('-')[0] ?? '';
  const sentence = SENTENCES[primary];
  if (sentence) return sentence;
  const name = autonym(primary);
  return name ? `${name}. ${COUNTING}` : COUNTING;
}
