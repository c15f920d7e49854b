#!/usr/bin/env python3
"""Fidelity cases for xnli (15 languages), xcopa (11) and belebele (122):
every task of the three directories. Run: python3 fidelity/build/multilingual.py
"""
import os
import re
import sys

from common import TASKS, case, write_cases, write_jsonl

# (premise, hypothesis, label): 0 entailment, 1 neutral, 2 contradiction
XNLI = {
    "ar": [("الرجل يقرأ كتابا في الحديقة.", "رجل يقرأ.", 0), ("الأطفال يلعبون كرة القدم.", "الأطفال نائمون.", 2), ("ذهبت المرأة إلى السوق.", "اشترت المرأة خبزا.", 1)],
    "bg": [("Мъжът чете книга в парка.", "Един мъж чете.", 0), ("Децата играят футбол.", "Децата спят.", 2), ("Жената отиде на пазара.", "Жената купи хляб.", 1)],
    "de": [("Der Mann liest ein Buch im Park.", "Ein Mann liest.", 0), ("Die Kinder spielen Fußball.", "Die Kinder schlafen.", 2), ("Die Frau ging zum Markt.", "Die Frau kaufte Brot.", 1)],
    "el": [("Ο άντρας διαβάζει ένα βιβλίο στο πάρκο.", "Ένας άντρας διαβάζει.", 0), ("Τα παιδιά παίζουν ποδόσφαιρο.", "Τα παιδιά κοιμούνται.", 2), ("Η γυναίκα πήγε στην αγορά.", "Η γυναίκα αγόρασε ψωμί.", 1)],
    "en": [("The man is reading a book in the park.", "A man is reading.", 0), ("The children are playing football.", "The children are asleep.", 2), ("The woman went to the market.", "The woman bought bread.", 1)],
    "es": [("El hombre lee un libro en el parque.", "Un hombre está leyendo.", 0), ("Los niños juegan al fútbol.", "Los niños duermen.", 2), ("La mujer fue al mercado.", "La mujer compró pan.", 1)],
    "fr": [("L'homme lit un livre dans le parc.", "Un homme lit.", 0), ("Les enfants jouent au football.", "Les enfants dorment.", 2), ("La femme est allée au marché.", "La femme a acheté du pain.", 1)],
    "hi": [("आदमी पार्क में किताब पढ़ रहा है।", "एक आदमी पढ़ रहा है।", 0), ("बच्चे फुटबॉल खेल रहे हैं।", "बच्चे सो रहे हैं।", 2), ("महिला बाज़ार गई।", "महिला ने रोटी खरीदी।", 1)],
    "ru": [("Мужчина читает книгу в парке.", "Мужчина читает.", 0), ("Дети играют в футбол.", "Дети спят.", 2), ("Женщина пошла на рынок.", "Женщина купила хлеб.", 1)],
    "sw": [("Mwanamume anasoma kitabu bustanini.", "Mwanamume anasoma.", 0), ("Watoto wanacheza mpira.", "Watoto wamelala.", 2), ("Mwanamke alienda sokoni.", "Mwanamke alinunua mkate.", 1)],
    "th": [("ชายคนนั้นกำลังอ่านหนังสือในสวน", "ผู้ชายกำลังอ่านหนังสือ", 0), ("เด็กๆ กำลังเล่นฟุตบอล", "เด็กๆ กำลังนอนหลับ", 2), ("ผู้หญิงไปตลาด", "ผู้หญิงซื้อขนมปัง", 1)],
    "tr": [("Adam parkta kitap okuyor.", "Bir adam okuyor.", 0), ("Çocuklar futbol oynuyor.", "Çocuklar uyuyor.", 2), ("Kadın pazara gitti.", "Kadın ekmek aldı.", 1)],
    "ur": [("آدمی پارک میں کتاب پڑھ رہا ہے۔", "ایک آدمی پڑھ رہا ہے۔", 0), ("بچے فٹ بال کھیل رہے ہیں۔", "بچے سو رہے ہیں۔", 2), ("عورت بازار گئی۔", "عورت نے روٹی خریدی۔", 1)],
    "vi": [("Người đàn ông đang đọc sách trong công viên.", "Một người đàn ông đang đọc.", 0), ("Bọn trẻ đang chơi bóng đá.", "Bọn trẻ đang ngủ.", 2), ("Người phụ nữ đã đi chợ.", "Người phụ nữ đã mua bánh mì.", 1)],
    "zh": [("那个男人在公园里看书。", "一个男人在看书。", 0), ("孩子们在踢足球。", "孩子们在睡觉。", 2), ("那个女人去了市场。", "那个女人买了面包。", 1)],
}


def xnli():
    cs = []
    for lang, rows in XNLI.items():
        docs = [{"premise": p, "hypothesis": h, "label": l} for p, h, l in rows]
        files = {"validation": write_jsonl("xnli", f"xnli_{lang}_validation.jsonl", docs),
                 "train": write_jsonl("xnli", f"xnli_{lang}_train.jsonl", docs[::-1])}
        cs.append(case(f"fid_xnli_{lang}", f"xnli/xnli_{lang}.yaml", files))
    for lang in ("en", "de", "zh"):
        files = cs[list(XNLI).index(lang)]["data_files"]
        cs.append(case(f"fid_xnli_{lang}_2shot", f"xnli/xnli_{lang}.yaml", files, 2))
    write_cases("xnli", cs)


# (premise, choice1, choice2, question, label)
XCOPA = {
    "et": [("Mees keeras kraani lahti.", "Tualett täitus veega.", "Kraanist voolas vett.", "effect", 1), ("Tüdruk leidis oma helvestest putuka.", "Ta valas kaussi piima.", "Ta kaotas isu.", "effect", 1), ("Naine läks pensionile.", "Ta sai pensioni.", "Ta maksis laenu ära.", "effect", 0)],
    "ht": [("Nonm nan louvri tiyo a.", "Twalèt la te plen dlo.", "Dlo te koule nan tiyo a.", "effect", 1), ("Tifi a te jwenn yon ensèk nan sereyal li.", "Li te vide lèt nan bòl la.", "Li te pèdi apeti li.", "effect", 1), ("Fanm nan te pran retrèt.", "Li te resevwa pansyon li.", "Li te peye ipotèk li.", "effect", 0)],
    "id": [("Pria itu membuka keran.", "Toilet terisi air.", "Air mengalir dari keran.", "effect", 1), ("Gadis itu menemukan serangga di serealnya.", "Dia menuangkan susu ke mangkuk.", "Dia kehilangan nafsu makan.", "effect", 1), ("Wanita itu pensiun.", "Dia menerima uang pensiun.", "Dia melunasi hipoteknya.", "effect", 0)],
    "it": [("L'uomo aprì il rubinetto.", "Il gabinetto si riempì d'acqua.", "L'acqua uscì dal beccuccio.", "effect", 1), ("La ragazza trovò un insetto nei cereali.", "Versò il latte nella ciotola.", "Perse l'appetito.", "effect", 1), ("La donna andò in pensione.", "Ricevette la pensione.", "Estinse il mutuo.", "effect", 0)],
    "qu": [("Qhariqa pilata kicharqan.", "Bañuqa yakuwan huntarqan.", "Yakuqa pilamanta lluqsirqan.", "effect", 1), ("Sipasqa cerealninpi khurata tarirqan.", "Lecheta chuwaman hich'arqan.", "Mikhuy munayninta chinkachirqan.", "effect", 1), ("Warmiqa jubilakurqan.", "Pensionta chaskirqan.", "Manunta pagarqan.", "effect", 0)],
    "sw": [("Mwanamume alifungua bomba.", "Choo kilijaa maji.", "Maji yalitiririka kutoka bombani.", "effect", 1), ("Msichana alipata mdudu kwenye nafaka yake.", "Alimimina maziwa bakulini.", "Alipoteza hamu ya kula.", "effect", 1), ("Mwanamke alistaafu.", "Alipokea pensheni yake.", "Alilipa mkopo wa nyumba.", "effect", 0)],
    "ta": [("அந்த மனிதன் குழாயைத் திறந்தான்.", "கழிப்பறை தண்ணீரால் நிரம்பியது.", "குழாயிலிருந்து தண்ணீர் வழிந்தது.", "effect", 1), ("சிறுமி தன் தானியத்தில் ஒரு பூச்சியைக் கண்டாள்.", "அவள் கிண்ணத்தில் பால் ஊற்றினாள்.", "அவள் பசியை இழந்தாள்.", "effect", 1), ("அந்தப் பெண் ஓய்வு பெற்றாள்.", "அவள் ஓய்வூதியம் பெற்றாள்.", "அவள் கடனை அடைத்தாள்.", "effect", 0)],
    "th": [("ชายคนนั้นเปิดก๊อกน้ำ", "ชักโครกเต็มไปด้วยน้ำ", "น้ำไหลออกจากก๊อก", "effect", 1), ("เด็กหญิงพบแมลงในซีเรียลของเธอ", "เธอเทนมลงในชาม", "เธอเบื่ออาหาร", "effect", 1), ("ผู้หญิงคนนั้นเกษียณ", "เธอได้รับเงินบำนาญ", "เธอจ่ายหนี้บ้านหมด", "effect", 0)],
    "tr": [("Adam musluğu açtı.", "Tuvalet suyla doldu.", "Musluktan su aktı.", "effect", 1), ("Kız mısır gevreğinde bir böcek buldu.", "Kaseye süt döktü.", "İştahını kaybetti.", "effect", 1), ("Kadın emekli oldu.", "Emekli maaşını aldı.", "Ev kredisini ödedi.", "effect", 0)],
    "vi": [("Người đàn ông mở vòi nước.", "Bồn cầu đầy nước.", "Nước chảy ra từ vòi.", "effect", 1), ("Cô gái tìm thấy một con bọ trong ngũ cốc.", "Cô ấy rót sữa vào bát.", "Cô ấy mất cảm giác ngon miệng.", "effect", 1), ("Người phụ nữ nghỉ hưu.", "Bà ấy nhận lương hưu.", "Bà ấy trả hết nợ nhà.", "cause", 0)],
    "zh": [("那个男人打开了水龙头。", "马桶里装满了水。", "水从龙头里流出来。", "effect", 1), ("女孩在麦片里发现了一只虫子。", "她把牛奶倒进碗里。", "她没了胃口。", "effect", 1), ("那个女人退休了。", "她领到了退休金。", "她还清了房贷。", "cause", 0)],
}


def xcopa():
    cs = []
    for lang, rows in XCOPA.items():
        docs = [{"premise": p, "choice1": c1, "choice2": c2, "question": q, "label": l, "idx": i, "changed": False}
                for i, (p, c1, c2, q, l) in enumerate(rows)]
        files = {"test": write_jsonl("xcopa", f"xcopa_{lang}_test.jsonl", docs),
                 "validation": write_jsonl("xcopa", f"xcopa_{lang}_validation.jsonl", docs[::-1])}
        cs.append(case(f"fid_xcopa_{lang}", f"xcopa/default_{lang}.yaml", files))
    for lang in ("it", "zh"):
        cs.append(case(f"fid_xcopa_{lang}_2shot", f"xcopa/default_{lang}.yaml", cs[list(XCOPA).index(lang)]["data_files"], 2))
    write_cases("xcopa", cs)


BELEBELE = [
    ("https://en.wikibooks.org/wiki/Accordion/Right_hand", 1,
     "Make sure your hand is as relaxed as possible while still hitting all the notes correctly - also try not to make much extraneous motion with your fingers. This way, you will tire yourself out as little as possible. Remember there's no need to hit the keys with a lot of force for extra volume like on the piano.",
     "According to the passage, what would not be considered an accurate tip for successfully playing the accordion?",
     "For additional volume, increase the force with which you hit the keys", "Keep unnecessary movement to a minimum in order to preserve your stamina",
     "Be mindful of hitting the notes while maintaining a relaxed hand", "Increase the speed with which you operate the bellows to achieve extra volume", "1"),
    ("https://en.wikinews.org/wiki/Dr._Ehud_Ur_speaks", 2,
     "\"We now have 4-month-old mice that are non-diabetic that used to be diabetic,\" he added. Dr. Ehud Ur, professor of medicine at Dalhousie University in Halifax, Nova Scotia, cautioned that the research is still in its early days.",
     "What was Dr. Ehud Ur's attitude toward the research?", "Enthusiastic", "Cautious", "Dismissive", "Angry", "2"),
    ("https://en.wikivoyage.org/wiki/Bus_travel", 1,
     "Most buses in the region run on a fixed timetable, but rural routes may operate only a few times a day. Tickets are usually bought from the driver, and exact change is appreciated.",
     " How are tickets usually bought? ", "Online in advance", "From a machine at the station", "From the driver", "At the hotel", "3"),
    ("https://en.wikipedia.org/wiki/Volcano", 1,
     "A volcano is a rupture in the crust of a planetary-mass object that allows hot lava, volcanic ash, and gases to escape from a magma chamber below the surface.",
     "What escapes from a volcano according to the passage?", "Only water", "Lava, ash and gases", "Cold rocks", "Nothing", "2"),
]


def belebele():
    d = os.path.join(TASKS, "belebele")
    langs = sorted(f[len("belebele_"):-len(".yaml")] for f in os.listdir(d) if f.startswith("belebele_") and f.endswith(".yaml"))
    cs = []
    # The tasks differ only by dataset_name: the prompt template has no
    # language-specific text, so one file of documents serves all of them.
    for lang in langs:
        docs = [{"link": l, "question_number": n, "flores_passage": p, "question": q, "mc_answer1": a1, "mc_answer2": a2,
                 "mc_answer3": a3, "mc_answer4": a4, "correct_answer_num": c, "dialect": lang, "ds": "2023-05-03"}
                for l, n, p, q, a1, a2, a3, a4, c in BELEBELE]
        if lang == langs[0]:
            f = write_jsonl("belebele", "belebele_test.jsonl", docs)
        cs.append(case(f"fid_belebele_{lang}", f"belebele/belebele_{lang}.yaml", {"test": f}))
    for lang in ("eng_Latn", "zho_Hans", "swh_Latn"):
        cs.append(case(f"fid_belebele_{lang}_2shot", f"belebele/belebele_{lang}.yaml", {"test": f}, 2))
    write_cases("belebele", cs)


FAMILIES = {f.__name__: f for f in (xnli, xcopa, belebele)}

if __name__ == "__main__":
    for name in sys.argv[1:] or FAMILIES:
        FAMILIES[name]()
