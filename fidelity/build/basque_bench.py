"""basque_bench: documents and cases (paws_eu and xcopa_eu use the documents
already in testdata/basque_bench/data; piqa_eu, wnli_eu and mgsm_direct_eu's
are written here in HiTZ's schemas)."""
from common import case, write_cases, write_jsonl

F = "basque_bench"


def main():
    piqa = [
        {"goal": "Nola moztu ogia xerratan?", "sol1": "Erabili labana zorrotza eta moztu poliki.", "sol2": "Erabili koilara eta sakatu gogor.", "label": 0},
        {"goal": "Ura azkar berotzeko", "sol1": "Jarri ura izozkailuan.", "sol2": "Jarri ura kazola batean su biziaren gainean.", "label": 1},
        {"goal": "Landare bat ureztatu", "sol1": "Bota ura lurrera, sustraien inguruan.", "sol2": "Bota ura hostoen gainean soilik, gauez.", "label": 0},
        {"goal": "Zapata lokarriak lotzeko", "sol1": "Egin korapilo bat eta gero begizta bi.", "sol2": "Itsatsi lokarriak kolarekin.", "label": 0},
        {"goal": "Liburu bat babesteko euritan", "sol1": "Eraman liburua eskuan, zabalik.", "sol2": "Sartu liburua plastikozko poltsa batean.", "label": 1},
    ]
    wnli = [
        {"sentence1": "Jonek Mikeli dirua eman zion, zorretan zegoelako.", "sentence2": "Mikel zorretan zegoen.", "label": 1, "idx": 0},
        {"sentence1": "Trofeoa ez zen maletan sartzen, handiegia zelako.", "sentence2": "Maleta handiegia zen.", "label": 0, "idx": 1},
        {"sentence1": "Anek Mireni deitu zion, baina ez zuen erantzun.", "sentence2": "Mirenek ez zuen erantzun.", "label": 1, "idx": 2},
        {"sentence1": "Katuak sagua harrapatu zuen, gosea zuelako.", "sentence2": "Saguak gosea zuen.", "label": 0, "idx": 3},
        {"sentence1": "Gizonak semea altxatu ezin izan zuen, ahulegia zelako.", "sentence2": "Gizona ahulegia zen.", "label": 1, "idx": 4},
    ]

    def mgsm(q, a, n, eq=""):
        return {"question": q, "answer": a, "answer_number": n, "equation_solution": eq}

    mgsm_train = [
        mgsm("Galdera: Rogerrek 5 tenis pilota ditu. 2 pote gehiago erosten ditu, bakoitzean 3 pilota. Zenbat pilota ditu orain?",
             "Urratsez urratseko erantzuna: Rogerrek 5 pilota zituen hasieran. 2 pote, 3 pilota bakoitzean, 6 pilota dira. 5 + 6 = 11. Erantzuna 11 da.", 11, "5 + 6 = 11."),
        mgsm("Galdera: Zerbitzarien gelan 9 ordenagailu zeuden. Astelehenetik ostegunera egunero 5 ordenagailu gehiago instalatu ziren. Zenbat ordenagailu daude orain?",
             "Urratsez urratseko erantzuna: 4 egun daude astelehenetik ostegunera. 5 * 4 = 20 ordenagailu gehitu ziren. 9 + 20 = 29. Erantzuna 29 da.", 29, "5 * 4 = 20. 9 + 20 = 29."),
        mgsm("Galdera: Leahk 32 txokolate zituen eta bere ahizpak 42. 35 jaten badituzte, zenbat geratzen zaizkie guztira?",
             "Urratsez urratseko erantzuna: 32 + 42 = 74. 74 - 35 = 39. Erantzuna 39 da.", 39, "32 + 42 = 74. 74 - 35 = 39."),
    ]
    mgsm_test = [
        mgsm("Janeten ahateek 16 arrautza erruten dituzte egunean. 3 jaten ditu gosaltzeko eta 4 erabiltzen ditu opilak egiteko. Gainerakoak 2 dolarrean saltzen ditu. Zenbat dolar irabazten ditu egunero?", None, 18),
        mgsm("Soineko batek 2 zati zuntz urdin behar ditu eta horren erdia zuntz zuri. Zenbat zati behar ditu guztira?", None, 3),
        mgsm("Joshek etxe bat 80.000 dolarretan erosi eta 50.000 dolar gastatu zituen konponketetan. Horrek etxearen balioa % 150 igo zuen. Zenbat irabazi zuen?", None, 70000),
        mgsm("Jamesek 3 esprint egiten ditu 3 aldiz astean. Esprint bakoitzean 60 metro egiten ditu. Zenbat metro egiten ditu astean?", None, 540),
        mgsm("Ur depositu batean -5 gradu zeuden goizean eta 7 gradu igo zen tenperatura. Zein da tenperatura orain?", None, 2),
    ]
    # Ordered so that gen.py's draw (by a hash of the prompt) gives some
    # documents their right answer, in the plain and the extracted form.
    answers = ["Ez dakit", " 1 234", "70,000 dolar", "Erantzuna: 2", "-5", "12 ordu", " 18", "70.000", "540 metro",
               "Erantzuna 3 da.", "18", "ezin da jakin"]
    write_cases(F, [
        case("fid_paws_eu", "basque_bench/paws_eu.yaml", {"test": "paws_test.jsonl"}),
        case("fid_xcopa_eu", "basque_bench/xcopa_eu.yaml", {"validation": "xcopa_val.jsonl", "test": "xcopa_test.jsonl"}),
        case("fid_piqa_eu", "basque_bench/piqa_eu.yaml", {"validation": write_jsonl(F, "piqa_validation.jsonl", piqa)}),
        case("fid_wnli_eu", "basque_bench/wnli_eu.yaml", {"validation": write_jsonl(F, "wnli_validation.jsonl", wnli)}),
        case("fid_mgsm_direct_eu", "basque_bench/mgsm_direct_eu.yaml",
             {"train": write_jsonl(F, "mgsm_train.jsonl", mgsm_train), "test": write_jsonl(F, "mgsm_test.jsonl", mgsm_test)},
             answers=answers),
        case("fid_mgsm_direct_eu_2shot", "basque_bench/mgsm_direct_eu.yaml",
             {"train": "mgsm_train.jsonl", "test": "mgsm_test.jsonl"}, 2, answers=answers),
    ])


if __name__ == "__main__":
    main()
