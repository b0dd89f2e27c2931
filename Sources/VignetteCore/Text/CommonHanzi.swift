/// The most frequent Chinese characters, in simplified and traditional form, for telling real
/// Chinese text from other bytes misread as GB18030 or Big5.
///
/// About the 500 most frequent characters of modern written Chinese (after Jun Da's corpus
/// frequency list) cover some three quarters of running text; bytes decoded with the wrong
/// Chinese encoding hit them only by chance. The traditional list is the same characters in
/// traditional form.
struct CommonHanzi: Sendable {
    /// One bit per code point in U+4E00–U+9FFF (CJK Unified Ideographs).
    private var bits = [UInt64](repeating: 0, count: (0xA000 - 0x4E00 + 63) / 64)

    /// A set holding the characters of `lists`.
    init(_ lists: String...) {
        for scalar in lists.joined().unicodeScalars where (0x4E00..<0xA000).contains(scalar.value) {
            let i = Int(scalar.value) - 0x4E00
            bits[i >> 6] |= 1 << UInt64(i & 63)
        }
    }

    /// Whether `value` (a code point) is in the set.
    @inline(__always)
    func contains(_ value: UInt32) -> Bool {
        guard value >= 0x4E00, value < 0xA000 else { return false }
        let i = Int(value) - 0x4E00
        return bits[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    /// The most frequent characters in simplified form.
    static let simplifiedList =
        [
            "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里",
            "用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实",
            "日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政",
            "美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员",
            "解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件",
            "计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象",
            "完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改",
            "收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调",
            "深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企",
            "八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列",
        ].joined()

    /// The same characters in traditional form.
    static let traditionalList =
        [
            "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡",
            "用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實",
            "日軍者意無力它與長把機十民第公此已工使情明性知全三又關點正業外將兩高間由問很最重並物手應戰向頭文體政",
            "美相見被利什二等產或新己制身果加西斯月話合回特代內信表化老給世位次度門任常先海通教兒原東聲提立及比員",
            "解水名真論處走義各入幾口認條平系氣題活爾更別打女變四神總何電數安少報才結反受目太量再感建務做接必場件",
            "計管期市直德資命山金指克許統區保至隊形社便空決治展馬科司五基眼書非則聽白卻界達光放強即像難且權思王象",
            "完設式色路記南品住告類求據程北邊死張該交規萬取拉格望覺術領共確傳師觀清今切院讓識候帶導爭運笑飛風步改",
            "收根幹造言聯持組每濟車親極林服快辦議往元英士證近失轉夫令準布始怎呢存未遠叫台單影具羅字愛擊流備兵連調",
            "深商算質團集百需價花黨華城石級整府離況亞請技際約示復病息究線似官火斷精滿支視消越器容照須九增研寫稱企",
            "八功嗎包片史委乎查輕易早曾除農找裝廣顯吧阿李標談吃圖念六引歷首醫局突專費號盡另周較注語僅考落青隨選列",
        ].joined()

    /// Both forms: traditional text may be written in GB18030 and simplified text in Big5's
    /// shared characters, so each candidate accepts either.
    static let either = CommonHanzi(simplifiedList, traditionalList)
}
