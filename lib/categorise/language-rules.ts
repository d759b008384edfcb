/**
 * The table of `languages.ts`, as data: one row per language and category (id, pattern, category, an
 * example), in the order its rules are tried within a category. The rows hold the plain words each
 * language says these things with (first-person plans and imperatives, problem words, hedges, done
 * reports), not phrases of any one session. Every pattern is an alternation of literals, anchored or
 * not: linear in the sentence. Read by `otherLanguage` (languages.ts), which says how.
 */
import { BLOCKER, HYPOTHESIS, NEXT, QUESTION } from './codes.js';

/** One rule of the table. */
export interface LanguageRule {
  /** `<language>-<what>`, e.g. `zh-next`. */
  id: string;
  pattern: RegExp;
  /**
   * The category code (codes.ts) the rule gives, `done` (vetoes a blocker or a step), or `offer` (an
   * offer to the user, "需要我帮你改吗？": no note, whatever else the sentence says).
   */
  category: number | 'done' | 'offer';
  /** A sentence the rule reads, for the table's test. */
  example: string;
  /**
   * Also read in text with no letter of the table's languages (plain-ASCII Spanish, "Vamos a leer el archivo"):
   * only a plan anchored at the start, whose opening words are not English ones.
   */
  ascii?: true;
}

/** Openers a plan may start with, in the table's languages: numbering, bullets, bold. */
const LEAD = String.raw`^[\s*#>•\-–\d.、)）:：]*`;
/** Chinese words for "now", "next", "first" that may open a plan ("现在让我…"). */
export const ZH_NOW = '现在|現在|接下来|接下來|下一步|然后|然後|首先|最后|最後|先';
/** Chinese first-person plans ("让我们", "我来", "我们需要"): a plan wherever a clause opens with one. */
export const ZH_I_WILL =
  '让我们?|讓我們?|我来|我來|我将|我將|我会|我會|我要|我需要|我们来|我們來|我们需要|我們需要|我(?:现在|現在|先)?(?:继续|繼續|开始|開始)';
/** An acknowledgement a plan may open with ("好的，我现在继续…", "明白，我来…"). */
const ZH_ACK = '(?:好的|好|嗯|明白了?|了解|收到|没问题|沒問題|ok|okay)[，,!！。.\\s]*';
/** "Please" (请), not a request (请求) or "may I ask" (请问, 请教). */
const ZH_PLEASE = '请(?![求问教])';

/** The table, in the order its rules are tried within a category. */
export const LANGUAGE_RULES: readonly LanguageRule[] = [
  // Done-reports first: they veto what a problem or plan word would say.
  {
    id: 'zh-done',
    pattern:
      /已(?:经)?(?:修复|完成|解决|更新|添加|创建|删除|提交|推送|修改|实现|安装|配置)|修复完成|全部通过|已通过|没有问题|没问题|正常(?:工作|运行)|(?:更新|实现|添加|创建|修改|解决|完成|修复|删除)了/,
    category: 'done',
    example: '已修复导入错误。',
  },
  {
    id: 'ja-done',
    pattern: /(?:修正|追加|作成|更新|削除|完了|実装|解決)(?:し)?ました|完了です/,
    category: 'done',
    example: 'エラーを修正しました。',
  },
  {
    id: 'ko-done',
    pattern: /(?:완료|수정|추가|생성|해결)(?:했습니다|되었습니다|됐습니다)/,
    category: 'done',
    example: '오류를 수정했습니다.',
  },
  {
    id: 'ru-done',
    pattern: /(?:исправлен|добавлен|создан|обновл[её]н|установлен|готово|успешно)/i,
    category: 'done',
    example: 'Ошибка исправлена.',
  },
  {
    id: 'es-pt-done',
    pattern:
      /(?<![\p{L}\p{N}_])(?:he (?:creado|actualizado|agregado|añadido|corregido|arreglado)|(?:criei|atualizei|adicionei|corrigi)(?![\p{L}\p{N}_])|completad[oa]|concluíd[oa])/iu,
    category: 'done',
    example: 'He corregido la importación.',
  },
  {
    id: 'it-done',
    pattern:
      /(?<![\p{L}\p{N}_])(?:ho (?:creato|aggiornato|aggiunto|corretto|sistemato|rimosso|modificato)|(?:completat|risolt|sistemat|fixat)[oaie])(?![\p{L}\p{N}_])/iu,
    category: 'done',
    example: 'Ho corretto l’importazione.',
  },
  {
    id: 'de-fr-done',
    pattern:
      /(?<![\p{L}\p{N}_])(?:résolue?s?|corrigée?s?|réparée?s?|terminée?s?|behoben|erledigt|funktioniert (?:jetzt|wieder))(?![\p{L}\p{N}_])/iu,
    category: 'done',
    example: 'Le problème est complètement résolu !',
  },
  {
    id: 'vi-done',
    pattern: /đã (?:sửa|tạo|cập nhật|thêm|hoàn thành|khắc phục)|thành công/iu,
    category: 'done',
    example: 'Đã sửa lỗi.',
  },
  // Offers to the user ("Do you want me to…?"): pleasantries, not open questions.
  {
    id: 'zh-offer',
    pattern:
      /(?:需要|要不要|是否需要)我[^。！？?]{0,40}[吗么][？?]?|如果(?:你|您)?需要[，,]?(?:我可以|可以让我)/,
    category: 'offer',
    example: '需要我帮你修改配置吗？',
  },
  // Open questions: a question mark closing a sentence in a script the English reading does not ask in.
  { id: 'any-question', pattern: /[?？]\s*$/, category: QUESTION, example: '你想用哪个版本？' },
  {
    // "Whether …" without a question mark, unless something is checked for it ("检查…是否…": a step).
    id: 'zh-question',
    pattern: /(?<!(?:检查|确认|查看|看看?|验证|测试|检测|判断)[^。！？!?]{0,40})是否/,
    category: QUESTION,
    example: '菜单是否能正常展开',
  },
  // Hedged guesses.
  {
    id: 'zh-hypothesis',
    pattern: /可能|也许|似乎|好像|大概|估计|怀疑/,
    category: HYPOTHESIS,
    example: '可能是缓存的问题。',
  },
  {
    id: 'ja-hypothesis',
    pattern: /かもしれ|おそらく|可能性があ|ようです|みたいです/,
    category: HYPOTHESIS,
    example: 'キャッシュが原因かもしれません。',
  },
  {
    id: 'ko-hypothesis',
    // "…일 수 있습니다" (it may be), "…것으로 보입니다" (it seems), "…듯합니다": not "할 수 있습니다" (can do).
    pattern: /것 같|아마|가능성|일 수 있|것으로 보이|것으로 보입|듯합니다/,
    category: HYPOTHESIS,
    example: '캐시 문제인 것 같습니다.',
  },
  {
    id: 'ru-hypothesis',
    pattern: /(?:похоже|возможно|видимо|наверное|вероятно|кажется)/i,
    category: HYPOTHESIS,
    example: 'Похоже, кэш устарел.',
  },
  {
    id: 'es-pt-hypothesis',
    pattern:
      /(?<![\p{L}\p{N}_])(?:quizás|quizá|tal vez|probablemente|posiblemente|puede que|talvez|provavelmente|parece que)(?![\p{L}\p{N}_])/iu,
    category: HYPOTHESIS,
    example: 'Quizás el caché está desactualizado.',
  },
  {
    id: 'it-hypothesis',
    pattern:
      /(?<![\p{L}\p{N}_])(?:forse|probabilmente|sembra|potrebbe essere|credo che|penso che)(?![\p{L}\p{N}_])/iu,
    category: HYPOTHESIS,
    example: 'Forse la cache è scaduta.',
  },
  {
    id: 'vi-hypothesis',
    pattern: /có lẽ|có thể là|dường như/i,
    category: HYPOTHESIS,
    example: 'Có lẽ bộ nhớ đệm đã cũ.',
  },
  {
    id: 'de-fr-hypothesis',
    pattern:
      /(?<![\p{L}\p{N}_])(?:vielleicht|wahrscheinlich|scheint|peut-être|probablement|semble)(?![\p{L}\p{N}_])/iu,
    category: HYPOTHESIS,
    example: 'Peut-être que le cache est périmé.',
  },
  // Problems that stand.
  {
    id: 'zh-blocker',
    pattern:
      /错误|报错|失败|无法|不能|不支持|不允许|缺少|找不到|不存在|出错|异常|(?<!默认|推荐|高频|常见|热门|示例|真实的)问题|仍未|仍然不|仍(?:然)?(?:是|在)|还没有|尚未|有误|没有成功|未成功/,
    category: BLOCKER,
    example: 'macOS 的 rsync 不支持该选项。',
  },
  {
    id: 'ja-blocker',
    pattern: /エラー|失敗|できません|見つかりません|サポートされていません|問題が/,
    category: BLOCKER,
    example: 'ビルドが失敗します。',
  },
  {
    id: 'ko-blocker',
    pattern: /오류|에러|실패|안 됩니다|되지 않|문제가/,
    category: BLOCKER,
    example: '빌드가 실패합니다.',
  },
  {
    id: 'ru-blocker',
    pattern:
      /(?:ошибк|не могу|не удалось|не получается|не работает|не поддерживается|нельзя|не хватает|блокирует|отсутству|невозможно|проблем|неправильн|неверн)/i,
    category: BLOCKER,
    example: 'Ошибка — не хватает прав на запись.',
  },
  {
    id: 'es-pt-blocker',
    pattern:
      /(?<![\p{L}\p{N}_])(?:erro|falla|fallo|falha|(?:ya )?no (?:puedo|tengo|se puede|funcionan?|existen?|está disponible|es posible)|não (?:consigo|funcionam?|existem?|é possível|está disponível|tenho))(?![\p{L}\p{N}_])/iu,
    category: BLOCKER,
    example: 'No está disponible la función de lectura.',
  },
  {
    id: 'it-blocker',
    pattern:
      /(?<![\p{L}\p{N}_])(?:errore|errori|fallit[oaie]|fallisce|falliscono|non (?:funziona|riesco|esiste|è possibile|trovato)|manca(?:no)?|impossibile|bloccat[oaie]|insufficient[ei]|non protett[oaie]|vulnerabil[ei]|malevol[oaie])(?![\p{L}\p{N}_])/iu,
    category: BLOCKER,
    example: 'Il build è fallito: manca la configurazione.',
  },
  {
    id: 'tr-blocker',
    pattern: /çalışmıyor|çalışmadı|başarısız|bulunamadı|hata (?:veriyor|alıyorum|var)/iu,
    category: BLOCKER,
    example: 'useKeyboard() hook’u doğru çalışmıyor.',
  },
  {
    id: 'vi-blocker',
    pattern: /lỗi|không thể|thất bại|không hoạt động|vấn đề/i,
    category: BLOCKER,
    example: 'Bản dựng bị lỗi.',
  },
  {
    id: 'de-fr-blocker',
    pattern:
      /(?<![\p{L}\p{N}_])(?:fehler|fehlgeschlagen|funktioniert nicht|erreur|échec|échoue|ne fonctionne pas|problème|ne marche pas|ne (?:se )?charge(?:nt)? pas|ne compile pas|ne démarre pas|n'existe pas)(?![\p{L}\p{N}_])/iu,
    category: BLOCKER,
    example: 'Der Build ist fehlgeschlagen, die Prüfung bricht ab.',
  },
  // Plans and steps: first-person intent, "now / next", or an imperative verb opening the sentence.
  {
    id: 'zh-next',
    pattern: new RegExp(
      `${LEAD}(?:${ZH_ACK})?(?:${ZH_NOW})?[，,：:\\s]*(?:${ZH_I_WILL}|需要|${ZH_PLEASE}|将|將|更新|修复|修復|添加|新增|创建|建立|删除|刪除|修改|运行|執行|检查|檢查|安装|安裝|配置|設定|实现|實現|移除|改为|改用|替换|重新|确保|編寫|编写|调整|查看|分析|优化|部署|提交|推送|记录|整理|测试|验证|确认|读取|搜索|查找|生成|构建|重构|清理|合并|迁移|启动|重启|尝试|编辑|看看|看一下)`,
    ),
    category: NEXT,
    example: '现在让我更新组件。',
  },
  {
    // A step for the user or a recommendation anywhere in the sentence: "请…" (not 请求, a request, or
    // 请问, a question), "建议…", "如需…，执行：".
    id: 'zh-step',
    pattern: new RegExp(`(?<![申邀])${ZH_PLEASE}|建议|如需|如果(?:你|您)?(?:要|想)(?!我)`),
    category: NEXT,
    example: '更简单的方法 - 请在浏览器控制台中运行以下命令：',
  },
  {
    id: 'ja-next',
    pattern:
      /(?:します|しましょう|していきます|してみます|しておきます|行います|立てます|進めます|始めます|読みます|調べます|見てみます|書きます)[。.!！]?\s*$|^[\s*#\d.、]*(?:次に|まず|では|それでは)/,
    category: NEXT,
    example: '次にテストを実行します。',
  },
  {
    id: 'ko-next',
    // "-겠습니다" says what the writer will do ("사용하겠습니다"), except "알겠습니다" (understood) and
    // "모르겠습니다" (I don't know); "-ㄹ게요" likewise ("확인할게요").
    pattern: /(?<![알르])겠습니다|[을할볼줄갈릴]게요|합시다|하세요|^[\s*#\d.]*(?:다음으로|먼저|이제)/,
    category: NEXT,
    example: '이제 테스트를 실행하겠습니다.',
  },
  {
    id: 'ru-next',
    pattern:
      /^[\s*#\d.•-]*(?:давай(?:те)?|сейчас|теперь|сначала|затем|далее|попробую|попробуем|проверю|проверим|запущу|установлю|исправлю|добавлю|создам|обновлю|сделаю|изменю|удалю|уберу|заменю|перепишу|настрою|посмотрю|открою|напишу|нужно|надо|следующ|\p{L}{3,}(?:ите|йте|ьте)(?![\p{L}]))/iu,
    category: NEXT,
    example: 'Попробую обновить yt-dlp.',
  },
  {
    id: 'es-pt-next',
    pattern:
      /^[\s*#\d.•-]*(?:(?:ahora|agora|primero|primeiro|luego|depois|entonces|então|bien|bueno|ok|okay|vale|perfecto|perfeito|certo|claro|listo|pronto|entendido|entendi|ótimo|excelente|genial)[,!.:]?\s+){0,2}(?:voy a|vamos a|vamos|déjame|primero|luego|a continuación|necesito|hay que|debemos|agrego|añado|leo|verifico|reviso|creo(?! que)|actualizo|corrijo|ejecuto|compruebo|pruebo|busco|elimino|cambio|escribo|instalo|configuro|ajusto|implemento|leio|crio|atualizo|executo|testo|adiciono|removo|intentaré|revisaré|crearé|actualizaré|agregaré|añadiré|asegúrate|proporciona|si quieres|vou|agora vou|deixe-me|preciso|precisamos|verifique|execute|instale|crie|adicione|atualize|(?:actualiz|atualiz|verific|revis|cre|cri|agreg|adicion|añad|corrig|ejecut|execut|analiz|analis|instal|configur|implement|ajust|elimin|remov|modific|prepar|busc|procur|prosseg)(?:ando|iendo|endo|indo|uindo))(?![\p{L}\p{N}_])/iu,
    category: NEXT,
    example: 'Voy a revisar la configuración.',
    ascii: true,
  },
  {
    id: 'it-next',
    pattern:
      /^[\s*#\d.•-]*(?:(?:ora|adesso|prima|poi|quindi|ok|perfetto|bene)[,!.:]?\s+)?(?:creo(?! que)|aggiungo|verifico|controllo|leggo|eseguo|aggiorno|correggo|provo|sistemo|rimuovo|modifico|scrivo|installo|configuro|converto|devo|dobbiamo|fammi|lasciami|procedo|passo|vediamo|proviamo|controlliamo|verifichiamo)(?![\p{L}\p{N}_])/iu,
    category: NEXT,
    example: 'Ora creo i test Playwright convertiti da Cypress:',
    ascii: true,
  },
  {
    // Turkish "we must …" (-malıyız / -meliyiz; read from a word's start, so a long run of letters is
    // read once), "now"; Indonesian "I will", "now I", "let's".
    id: 'tr-id-next',
    pattern:
      /(?<![\p{L}])\p{L}+(?:malıyız|meliyiz)(?![\p{L}])|^[\s*#\d.•-]*(?:şimdi|önce|sekarang(?:\s+saya)?|saya akan|mari kita|kita akan)(?![\p{L}\p{N}_])/iu,
    category: NEXT,
    example: 'Şimdi testleri çalıştıralım.',
    ascii: true,
  },
  {
    id: 'vi-next',
    pattern:
      /^[\s*#\d.•-]*(?:tôi sẽ|để tôi|tôi bắt đầu|hãy|bây giờ|tiếp theo|đầu tiên|cần|chỉ cần|chúng ta sẽ|thử|bạn cần|bạn nên|nên|sử dụng|thêm|xóa|sửa|kiểm tra|chạy|cập nhật|tạo)/i,
    category: NEXT,
    example: 'Bây giờ tôi sẽ chạy lại bài kiểm tra.',
  },
  {
    id: 'de-fr-next',
    pattern:
      /^[\s*#\d.•-]*(?:(?:maintenant|ensuite|puis|d'abord|jetzt|nun|zuerst)[,:]?\s+)?(?:(?:jetzt|nun|dann|als nächstes|zuerst)\s+\p{L}+\s+ich|(?:schritt \d+:\s*)?(?:erstelle|füge|teste|prüfe|registriere|installiere|entferne|ändere|aktualisiere|starte)|ich werde|lass mich|lass uns|als nächstes|zuerst|il faut|je dois|nous devons|on doit|ich (?:lese|prüfe|erstelle|teste|korrigiere|ändere|schreibe|aktualisiere|installiere|entferne|füge)|je vais|laissez-moi|ensuite|d'abord|je (?:lis|relis|vérifie|crée|teste|regarde|corrige|lance|commence|modifie|supprime|examine|mets)|j'(?:ajoute|exécute|examine|analyse|installe|écris)|(?:vérifi|test|corrige|ajout|regard|pass|commenç|lanç|exécut|essay|cré|modifi|supprim|mett|install|relanç|examin|analys|continu)ons)(?![\p{L}\p{N}_])/iu,
    category: NEXT,
    example: 'Je vais relancer les tests après la correction.',
    ascii: true,
  },
];
