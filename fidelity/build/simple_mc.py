#!/usr/bin/env python3
"""Fidelity cases for lm-eval's single-file multiple-choice families:
hellaswag, arc, piqa, winogrande, openbookqa, sciq, commonsense_qa, boolq
(super_glue/boolq), copa (super_glue/copa), siqa, lambada (lambada and
lambada_cloze), wikitext, anli, logiqa, logiqa2, mathqa, race.

Documents are hand-written in each dataset's schema. Every task gets a
zero-shot case (its YAML's own num_fewshot) and, where it has a training
or few-shot split, a 2-shot one. Run: python3 fidelity/build/simple_mc.py
"""
import json
import sys

from common import case, write_cases, write_jsonl

FS = 2  # few-shot cases: one lm-eval run for all of them


def hellaswag():
    def d(i, label, ctx_a, ctx_b, endings, lab):
        return {"ind": i, "activity_label": label, "ctx_a": ctx_a, "ctx_b": ctx_b,
                "ctx": (ctx_a + " " + ctx_b).strip(), "endings": endings, "source_id": f"activitynet~v_{i:04d}",
                "split": "val", "split_type": "indomain", "label": str(lab)}
    val = [
        d(24, "Roof shingle removal", "A man is sitting on a roof.", "he",
          ["is using wrap to wrap a pair of skis.", "is ripping level tiles off.",
           "is holding a rubik's cube.", "starts pulling up roofing on a roof."], 3),
        d(92, "Clean and jerk", "A lady walks to a barbell. She bends down and grabs the pole.", "the lady",
          ["swings and lands in her arms.", "pulls the barbell forward.",
           "pulls a rope attached to the barbell.", "stands and lifts the weight over her head."], 3),
        d(106, "Canoeing", "Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background.", "the child and a different man",
          ["are then shown paddling down a river in a boat while a woman talks.", "are driving the canoe, they go down the river flowing side to side.",
           "sit in a canoe while the man paddles.", "walking go down the rapids, while the man in his helicopter almost falls and goes out of canoehood."], 2),
        d(4012, "Home and Garden", "[header] How to grow tomatoes [title] Choose a sunny spot.", "[step] Tomatoes need",
          ["at least six hours of direct sun each day. [substeps] A south facing bed works best.",
           "to be watered with [title] cold coffee.", "a cold room  with no windows.", "nothing at all, so leave them."], 0),
        d(5033, "Personal Care and Style", "[header] How to tie a tie [title] Drape the tie around your neck.", "[step] The wide end",
          ["should hang lower than the narrow end.", "must be cut off with scissors.",
           "is [title] thrown away.", "goes in your pocket  for later."], 0),
        d(311, "Playing harmonica", "A man is seen speaking to the camera and leads into him playing the harmonica.", "he",
          ["continues playing while looking to the camera.", "puts the harmonica down and begins to dance.",
           "then throws the harmonica into a lake.", "eats the harmonica."], 0),
    ]
    train = [
        d(1, "Removing ice from car", "Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles.", "then",
          [", the man adds wax to the windshield and cuts it.", ", a person board a ski lift, while two men supporting the head of the person wearing winter clothes snow as the we girls sled.",
           ", the man puts on a christmas coat, knitted with netting.", ", the man continues removing the snow on his car."], 3),
        d(2, "Baking cookies", "A female chef in white uniform shows a stack of baking pans in a large kitchen presenting them.", "the pans",
          ["contain egg yolks and baking soda.", "are then sprinkled with brown sugar.",
           "are placed in a strainer on the counter.", "are filled with pastries and loaded into the oven."], 3),
        d(3, "Fixing bicycle", "[header] How to fix a flat tire [title] Remove the wheel.", "[step] Use a tire lever",
          ["to pry the tire off the rim.", "to paint the frame blue.", "and [title] throw it away.", "to ring the bell."], 0),
    ]
    vf = write_jsonl("hellaswag", "hellaswag_validation.jsonl", val)
    tf = write_jsonl("hellaswag", "hellaswag_train.jsonl", train)
    files = {"validation": vf, "train": tf}
    write_cases("hellaswag", [case("fid_hellaswag", "hellaswag/hellaswag.yaml", files),
                              case("fid_hellaswag_2shot", "hellaswag/hellaswag.yaml", files, FS)])


def arc():
    def d(i, q, texts, labels, key):
        return {"id": i, "question": q, "choices": {"text": texts, "label": labels}, "answerKey": key}
    L4 = ["A", "B", "C", "D"]
    easy = [
        d("Mercury_7175875", "An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect of this increase in rotation?",
          ["Planetary density will decrease.", "Planetary years will become longer.", "Planetary days will become shorter.", "Planetary gravity will become stronger."], L4, "C"),
        d("MCAS_2000_4_6", "Which technology was developed most recently?",
          ["cellular telephone", "television", "refrigerator", "airplane"], L4, "A"),
        d("NYSEDREGENTS_2015_4_8", "Which object is the best conductor of electricity?",
          ["a wax crayon", "a plastic spoon", "a rubber eraser", "an iron nail"], ["1", "2", "3", "4"], "4"),
        d("Mercury_SC_401372", "A student wants to find out how fast a toy car rolls down a ramp. Which tool should the student use?",
          ["a stopwatch", "a thermometer", "a balance"], ["A", "B", "C"], "A"),
        d("ACTAAP_2013_5_11", "Which of these is a renewable resource?",
          ["coal", "natural gas", "wind", "oil", "uranium"], ["A", "B", "C", "D", "E"], "C"),
    ]
    train = [
        d("Mercury_SC_415702", "George wants to warm his hands quickly by rubbing them. Which skin surface will produce the most heat?",
          ["dry palms", "wet palms", "palms covered with oil", "palms covered with lotion"], L4, "A"),
        d("MCAS_2009_5_6516", "Which of the following statements best explains why magnets usually stick to a refrigerator door?",
          ["The refrigerator door is smooth.", "The refrigerator door contains iron.", "The refrigerator door is a good conductor.", "The refrigerator door has electric wires in it."], L4, "B"),
        d("Mercury_7057295", "Which of these do scientists offer as the most recent explanation as to why many plants and animals died out at the end of the Mesozoic era?",
          ["worldwide disease", "global mountain building", "rise of mammals that preyed upon plants and animals", "impact of an asteroid created dust that blocked the sunlight"], ["1", "2", "3", "4"], "4"),
    ]
    files = {"test": write_jsonl("arc", "arc_test.jsonl", easy), "train": write_jsonl("arc", "arc_train.jsonl", train),
             "validation": write_jsonl("arc", "arc_validation.jsonl", train[:2])}
    chat_answers = [" C", " A", " D", " B", " c", "C. Planetary days", "A", "I think it is B"]
    write_cases("arc", [
        case("fid_arc_easy", "arc/arc_easy.yaml", files),
        case("fid_arc_challenge", "arc/arc_challenge.yaml", files),
        case("fid_arc_challenge_chat", "arc/arc_challenge_chat.yaml", files, answers=chat_answers),
        case("fid_arc_easy_2shot", "arc/arc_easy.yaml", files, FS),
        case("fid_arc_challenge_2shot", "arc/arc_challenge.yaml", files, FS),
        case("fid_arc_challenge_chat_2shot", "arc/arc_challenge_chat.yaml", files, FS, answers=chat_answers),
    ])


def piqa():
    def d(g, s1, s2, l):
        return {"goal": g, "sol1": s1, "sol2": s2, "label": l}
    val = [d("How do I ready a guinea pig cage for it's new occupants?", "Provide the guinea pig with a cage full of a few inches of bedding made of ripped paper strips, you will also need to supply it with a water bottle and a food dish.", "Provide the guinea pig with a cage full of a few inches of bedding made of ripped jeans material, you will also need to supply it with a water bottle and a food dish.", 0),
           d("dresser", "replace drawer with bobby pin ", "finish, woodgrain with  bobby pin ", 1),
           d("To fix a wobbly table, you can", "put a folded piece of cardboard under the short leg.", "put a folded piece of cardboard on top of the table.", 0),
           d("How to make sure all the clocks in the house are set accurately?", "Get a solar clock for a reference and place it just outside a window that gets lots of sun. Use a system of call and response once a month, having one person stationed at the solar clock who yells out the correct time and have another person move to each of the indoor clocks to check if they are showing the right time. Adjust as necessary.", "Replace all wind-ups with digital clocks. That way, you set them once, and that's it. Check the batteries once a year or if you notice anything looks a little off.", 1),
           d("Keep soup warm for longer.", "Pour it into a pre-heated thermos.", "Pour it into a chilled glass.", 0)]
    train = [d("When boiling butter, when it's ready, you can", "Pour it onto a plate", "Pour it into a jar", 1),
             d("To permanently attach metal legs to a chair, you can", "Weld the metal together to get it to stay firmly in place", "Nail the metal together to get it to stay firmly in place", 0),
             d("how do you indent something?", "leave a space before starting the writing", "press the spacebar", 0)]
    files = {"validation": write_jsonl("piqa", "piqa_validation.jsonl", val), "train": write_jsonl("piqa", "piqa_train.jsonl", train)}
    write_cases("piqa", [case("fid_piqa", "piqa/piqa.yaml", files), case("fid_piqa_2shot", "piqa/piqa.yaml", files, FS)])


def winogrande():
    def d(s, o1, o2, a):
        return {"sentence": s, "option1": o1, "option2": o2, "answer": a}
    val = [d("Sarah was a much better surgeon than Maria so _ always got the harder cases.", "Sarah", "Maria", "1"),
           d("Sarah was a much better surgeon than Maria so _ always got the easier cases.", "Sarah", "Maria", "2"),
           d("They were worried the wine would ruin the bed and the blanket, but the _ was't ruined.", "blanket", "bed", "2"),
           d("Terry tried to bake the eggplant in the toaster oven but the _ was too big.", "eggplant", "toaster", "1"),
           d("At night, Jeffrey always stays up later than Hunter to watch TV because _ wakes up late.", "Jeffrey", "Hunter", "1"),
           d("The trophy doesn't fit into the brown suitcase because the _ is too large.", "trophy", "suitcase", "1")]
    train = [d("Ian volunteered to eat Dennis's menudo after already having a bowl because _ despised eating intestine.", "Ian", "Dennis", "2"),
             d("He never comes to my home, but I always go to his house because the _ is smaller.", "home", "house", "1"),
             d("Kyle doesn't wear leg warmers to bed, while Logan almost always does. _ is more likely to live in a colder climate.", "Kyle", "Logan", "2")]
    files = {"validation": write_jsonl("winogrande", "winogrande_validation.jsonl", val), "train": write_jsonl("winogrande", "winogrande_train.jsonl", train)}
    write_cases("winogrande", [case("fid_winogrande", "winogrande/default.yaml", files),
                               case("fid_winogrande_2shot", "winogrande/default.yaml", files, FS)])


def openbookqa():
    def d(i, q, texts, key):
        return {"id": i, "question_stem": q, "choices": {"text": texts, "label": ["A", "B", "C", "D"]}, "answerKey": key}
    test = [d("8-376", "Frilled sharks and angler fish live far beneath the surface of the ocean, which is why they are known as", ["Deep sea animals", "fish", "Long Sea Fish", "Far Sea Animals"], "A"),
            d("8-347", "Gas can fill any container it is given, and liquid", ["is standard weight and size", "is the opposite of variable", "only needs a few", "uses what it needs"], "D"),
            d("7-1272", "When birds migrate south for the winter, they do it because", ["they are genetically called to.", "their children ask them to.", "it is important to their happiness.", "they decide to each year."], "A"),
            d("9-743", "A person wants to start saving money so that they can afford a nice vacation at the end of the year. After looking over their budget and expenses, they decide the best way to save money is to", ["make more phone calls", "quit eating lunch out", "buy less with monopoly money", "have lunch with friends"], " B".strip()),
            d("9-645", "A magnet will stick to", ["a belt buckle", "a wooden table", "a plastic cup", "a paper plate"], "A")]
    train = [d("7-980", "The sun is responsible for", ["puppies learning new tricks", "children growing up and getting old", "flowers wilting in a vase", "plants sprouting, blooming and wilting"], "D"),
             d("7-584", "When standing miles away from Mount Rushmore", ["the mountains seem very close", "the mountains are boring", "the mountains look the same as from up close", "the mountains seem smaller than in photographs"], "D"),
             d("7-870", "When food is reduced in the stomach", ["the mind needs time to digest", "take a second to digest what I said", "nutrients are being deconstructed", "reader's digest is a body of works"], "C")]
    files = {"test": write_jsonl("openbookqa", "openbookqa_test.jsonl", test), "train": write_jsonl("openbookqa", "openbookqa_train.jsonl", train),
             "validation": write_jsonl("openbookqa", "openbookqa_validation.jsonl", train[:2])}
    write_cases("openbookqa", [case("fid_openbookqa", "openbookqa/openbookqa.yaml", files),
                               case("fid_openbookqa_2shot", "openbookqa/openbookqa.yaml", files, FS)])


def sciq():
    def d(q, d1, d2, d3, c, s):
        return {"question": q, "distractor3": d3, "distractor1": d1, "distractor2": d2, "correct_answer": c, "support": s}
    test = [d("Compounds that are capable of accepting electrons, such as o 2 or f2, are called what?", "antioxidants", "Oxygen", "residues", "oxidants",
              "Oxidants and Reductants Compounds that are capable of accepting electrons, such as O 2 or F 2, are called oxidants (or oxidizing agents) because they can oxidize other compounds."),
            d("What term in biotechnology means a genetically exact copy of an organism?", "adult", "male", "phenotype", "clone",
              "\nCloning In biotechnology, a clone is a genetically exact copy of an organism."),
            d("Vertebrata are characterized by the presence of what?", "Bones", "Muscles", "Thumbs", "backbone", ""),
            d("What is the least dangerous radioactive decay?", "zeta decay", "beta decay", "gamma decay", "alpha decay",
              "All radioactive decay is dangerous to living things, but alpha decay is the least dangerous."),
            d("Kilauea in hawaii is the world’s most continuously active volcano. very active volcanoes characteristically eject red-hot rocks and lava rather than this?", "carbon and smog", "magma", "greenhouse gases", "smoke and ash",
              "Example 3.5 Calculating Projectile Motion: Hot Rock Projectile Kilauea in Hawaii is the world’s most continuously active volcano.")]
    train = [d("Mesophiles grow best in moderate temperature, typically between 25°C and 40°C (77°F and 104°F). Mesophiles are often found living in or on the bodies of humans or other animals. The optimal growth temperature of many pathogenic mesophiles is 37°C (98°F), the normal human body temperature. Mesophilic organisms have important uses in food preparation, including cheese, yogurt, beer and wine. What type of organism is commonly used in preparation of foods such as cheese and yogurt?",
               "viruses", "protozoa", "gymnosperms", "mesophilic organisms", "Mesophiles grow best in moderate temperature."),
             d("What phenomenon makes global winds blow northeast to southwest or the reverse in the northern hemisphere and northwest to southeast or the reverse in the southern hemisphere?", "muon effect", "centrifugal effect", "tropical effect", "coriolis effect", "Without Coriolis Effect the global winds would blow north to south or south to north."),
             d("Changes from a less-ordered state to a more-ordered state (such as a liquid to a solid) are always what?", "endothermic", "unbalanced", "reactive", "exothermic", "Summary Changes of state are examples of phase changes, or phase transitions.")]
    files = {"test": write_jsonl("sciq", "sciq_test.jsonl", test), "train": write_jsonl("sciq", "sciq_train.jsonl", train),
             "validation": write_jsonl("sciq", "sciq_validation.jsonl", train[:2])}
    write_cases("sciq", [case("fid_sciq", "sciq/sciq.yaml", files), case("fid_sciq_2shot", "sciq/sciq.yaml", files, FS)])


def commonsense_qa():
    L = ["A", "B", "C", "D", "E"]
    def d(i, q, c, texts, key):
        return {"id": i, "question": q, "question_concept": c, "choices": {"label": L, "text": texts}, "answerKey": key}
    val = [d("1afa02df02c908a558b4036e80242fac", "A revolving door is convenient for two direction travel, but it also serves as a security measure at a what?", "revolving door", ["bank", "library", "department store", "mall", "new york"], "A"),
           d("a7ab086045575bb497933726e4e6ad28", "What do people aim to do at work?", "people", ["complete job", "learn from each other", "kill animals", "wear hats", "talk to each other"], "A"),
           d("b8c0a4703079cf661d7261a60a1bcbff", "Where would you find magazines along side many other printed works?", "magazines", ["doctor", "bookstore", "market", "train station", "mortuary"], "B"),
           d("e68fb2448fd74e402aae9982aa76e527", "Where are  you likely to find a hamburger?", "hamburger", ["fast food restaurant", "pizza", "ground up dead cows", "mouth", "cow carcus"], "A"),
           d("2435de612dd69f2012b9e40d6af4ce38", " James was looking for a good place to buy farmland.  Where might he look?", "farmland", ["midwest", "countryside", "estate", "farming areas", "illinois"], "A")]
    train = [d("075e483d21c29a511267ef62bedc0461", "The sanctions against the school were a punishing blow, and they seemed to what the efforts the school had made to change?", "punishing", ["ignore", "enforce", "authoritarian", "yell at", "avoid"], "A"),
             d("61fe6e879ff18686d7552425a36344c8", "Sammy wanted to go to where the people were.  Where might he go?", "people", ["race track", "populated areas", "the desert", "apartment", "roadblock"], "B"),
             d("4c1cb0e95b99f72d55c068ba0255c54d", "To locate a choker not located in a jewelry box or boutique where would you go?", "choker", ["jewelry store", "neck", "jewlery box", "jewelry box", "boutique"], "A")]
    files = {"validation": write_jsonl("commonsense_qa", "commonsense_qa_validation.jsonl", val), "train": write_jsonl("commonsense_qa", "commonsense_qa_train.jsonl", train)}
    write_cases("commonsense_qa", [case("fid_commonsense_qa", "commonsense_qa/default.yaml", files),
                                   case("fid_commonsense_qa_2shot", "commonsense_qa/default.yaml", files, FS)])


def boolq():
    def d(i, q, p, l):
        return {"question": q, "passage": p, "idx": i, "label": l}
    val = [d(0, "does ethanol take more energy make that produces", "Ethanol fuel -- All biomass goes through at least some of these steps: it needs to be grown, collected, dried, fermented, distilled, and burned. All of these steps require resources and an infrastructure.", 0),
           d(1, "is house tax and property tax are same", "Property tax -- Property tax or 'house tax' is a local tax on buildings, along with appurtenant land.", 1),
           d(2, "is pain experienced in a missing body part or paralyzed area", "Phantom pain -- Phantom pain sensations are described as perceptions that an individual experiences relating to a limb or an organ that is not physically part of the body.", 1),
           d(3, "is harry potter and the escape from gringotts a roller coaster ride", "Harry Potter and the Escape from Gringotts -- Harry Potter and the Escape from Gringotts is an indoor steel roller coaster at Universal Studios Florida.", 1),
           d(4, "is there a difference between hydroxyzine hcl and hydroxyzine pam", "Hydroxyzine -- Hydroxyzine preparations require a doctor's prescription.", 1),
           d(5, "can you use oyster card at epsom station", "Epsom railway station -- Epsom railway station serves the town of Epsom in Surrey. It is outside the London Oyster card area.", 0)]
    train = [d(0, "do iran and afghanistan speak the same language", "Persian language -- Persian, also known by its endonym Farsi, is one of the Western Iranian languages.", 1),
             d(1, "do good samaritan laws protect those who help at an accident", "Good Samaritan law -- Good Samaritan laws offer legal protection to people who give reasonable assistance.", 1),
             d(2, "is windows movie maker part of windows essentials", "Windows Movie Maker -- Windows Movie Maker is a discontinued video editing software by Microsoft.", 1)]
    files = {"validation": write_jsonl("boolq", "boolq_validation.jsonl", val), "train": write_jsonl("boolq", "boolq_train.jsonl", train)}
    gen = [" yes", " no", "yes", "No.", " Yes, it is.", "maybe"]
    t5 = ["True", "False", "true", "False.", "I think True"]
    write_cases("boolq", [
        case("fid_boolq", "super_glue/boolq/default.yaml", files),
        case("fid_boolq_seq2seq", "super_glue/boolq/seq2seq.yaml", files, answers=gen),
        case("fid_boolq_t5_prompt", "super_glue/boolq/t5-prompt.yaml", files, answers=t5),
        case("fid_boolq_2shot", "super_glue/boolq/default.yaml", files, FS),
        case("fid_boolq_seq2seq_2shot", "super_glue/boolq/seq2seq.yaml", files, FS, answers=gen),
    ])


def copa():
    def d(i, p, c1, c2, q, l):
        return {"premise": p, "choice1": c1, "choice2": c2, "question": q, "idx": i, "label": l}
    val = [d(0, "The man turned on the faucet.", "The toilet filled with water.", "Water flowed from the spout.", "effect", 1),
           d(1, "The girl found a bug in her cereal.", "She poured milk in the bowl.", "She lost her appetite.", "effect", 1),
           d(2, "The woman retired.", "She received her pension.", "She paid off her mortgage.", "effect", 0),
           d(3, "I wanted to conserve energy.", "I swept the floor in the unoccupied room.", "I shut off the light in the unoccupied room.", "effect", 1),
           d(4, "The hamburger meat browned.", "The cook froze it.", "The cook grilled it.", "cause", 1),
           d(5, "The doctor x-rayed the patient's arm.", "He discovered that the patient's arm was broken.", "He put the patient's arm in a cast.", "effect", 0)]
    train = [d(0, "My body cast a shadow over the grass.", "The sun was rising.", "The grass was cut.", "cause", 0),
             d(1, "The woman tolerated her friend's difficult behavior.", "The woman knew her friend was going through a hard time.", "The woman felt that her friend took advantage of her kindness.", "cause", 0),
             d(2, "The women met for coffee.", "The cafe reopened in a new location.", "They wanted to catch up with each other.", "cause", 1)]
    files = {"validation": write_jsonl("copa", "copa_validation.jsonl", val), "train": write_jsonl("copa", "copa_train.jsonl", train)}
    t5 = ["choice1", "choice2", "Choice2.", "choice 1"]
    write_cases("copa", [
        case("fid_copa", "super_glue/copa/default.yaml", files),
        case("fid_copa_2shot", "super_glue/copa/default.yaml", files, FS),
        case("fid_copa_t5_prompt", "super_glue/copa/t5-prompt.yaml", files, answers=t5),
    ])


def siqa():
    def d(c, q, a, b, cc, l):
        return {"context": c, "question": q, "answerA": a, "answerB": b, "answerC": cc, "label": l}
    val = [d("Tracy didn't go home that evening and resisted Riley's attacks.", "What does Tracy need to do before this?", "make a new plan", "Go home and see Riley", "Find somewhere to go", "3"),
           d("Sydney walked past a homeless woman asking for change but did not have any money they could give to her. Sydney felt bad afterwards.", "How would you describe Sydney?", "sympathetic", "like a person who was unable to help", "incredulous", "1"),
           d("Sasha protected the patients' rights by making new laws regarding cancer drug trials.", "What will patients want to do next?", "write new laws", "get petitions signed", "live longer", "3"),
           d("Jordan was in charge of taking the food on the camping trip and left all the food at home.", "How would Jordan feel afterwards?", "horrible that he let his friends down on the camping trip", "happy that he doesn't need to do the cooking on the trip", "very proud and accomplished about the camping trip", "1"),
           d("Kendall opened their mouth to speak and what came out shocked everyone.", "How would you describe Kendall?", "a very quiet person", "a very passive person", "a very aggressive and talkative person", "3")]
    train = [d("Cameron decided to have a barbecue and gathered her friends together.", "How would Others feel as a result?", "like attending", "like staying home", "a good friend to have", "1"),
             d("Jan needed to give out jobs for an upcoming project at work.", "What will Others want to do next?", "disagree with Jan", "get to work", "argue with the assignments", "2"),
             d("Remy was an expert fisherman and was on the water with Kai. Remy baited Kai's hook.", "What will Remy want to do next?", "cast the line", "put the boat in the water", "invite Kai out on the boat", "1")]
    files = {"validation": write_jsonl("siqa", "siqa_validation.jsonl", val), "train": write_jsonl("siqa", "siqa_train.jsonl", train)}
    write_cases("siqa", [case("fid_social_iqa", "siqa/siqa.yaml", files), case("fid_social_iqa_2shot", "siqa/siqa.yaml", files, FS)])


LAMBADA = [
    "In my palm is a clear stone, and inside it is a small ivory statuette. A guardian angel. \"Figured if you're going to be out at night getting hit by cars, you might as well have some backup.\" I look at him, feeling stunned. Like this is some sort of sign. But as I stare at Harlin, his mouth curved in a confident grin, I don't care about signs",
    "Give me a minute to change and I'll meet you at the docks.\" She'd forced those words through her teeth. \"No need to change. We won't be that long.\" Shane gripped her arm and started leading her to the dock. \"I can make it there on my own, Shane",
    "\"Only one source I know of that would be likely to cough up enough money to finance a phony sleep research facility and pay people big bucks to solve crimes in their dreams,\" Farrell concluded dryly. \"What can I say?\" Ellis unfolded his arms and widened his hands. \"Your tax dollars at work.\" Before Farrell could respond, Leila's voice rose from inside the house. \"No insurance?\" she wailed. \"What do you mean you don't have any insurance",
    "Helen's heart broke a little in the face of Miss Mabel's selfless courage. She thought that because she was old, her life was of less value than the others'. For all Helen knew, Miss Mabel had a lot more years to live than she did. \"Not going to happen,\" replied Helen",
    "Preston had been the last person to wear those chains, and I knew what I'd see and feel if they were slipped onto my skin-the Reaper's unending hatred of me. I'd felt enough of that emotion already in the amphitheater. I didn't want to feel anymore. \"Don't put those on me,\" I whispered. \"Please",
]


def lambada():
    test = [{"text": t} for t in LAMBADA]
    std = [{"text": t, "domain": None} for t in LAMBADA]
    fo = {"test": write_jsonl("lambada", "lambada_openai_test.jsonl", test)}
    fs = {"test": write_jsonl("lambada", "lambada_standard_test.jsonl", std),
          "validation": write_jsonl("lambada", "lambada_standard_validation.jsonl", std[:2])}
    write_cases("lambada", [
        case("fid_lambada_openai", "lambada/lambada_openai.yaml", fo),
        case("fid_lambada_standard", "lambada/lambada_standard.yaml", fs),
        case("fid_lambada_openai_cloze", "lambada_cloze/lambada_openai_cloze.yaml", fo),
        case("fid_lambada_standard_cloze", "lambada_cloze/lambada_standard_cloze.yaml", fs),
    ])


def wikitext():
    pages = [
        " = Robert Boulter = \n \n Robert Boulter is an English film , television and theatre actor . He had a guest @-@ starring role on the television series The Bill in 2000 . This was followed by a starring role in the play Herons written by Simon Stephens , which was performed in 2001 at the Royal Court Theatre . \n \n = = Career = = \n \n In 2006 , Boulter starred alongside Whishaw in the play Citizenship written by Mark Ravenhill . He appeared on a 2006 episode of the television series , Doctors , followed by a role in the 2007 theatre production of How to Curse directed by Josie Rourke . \n",
        " = Du Fu = \n \n Du Fu ( Wade – Giles : Tu Fu ; Chinese : 杜甫 ; 712 – 770 ) was a prominent Chinese poet of the Tang dynasty . Along with Li Bai ( Li Po ) , he is frequently called the greatest of the Chinese poets . His greatest ambition was to serve his country as a successful civil servant , but he proved unable to make the necessary accommodations . \n \n = = = Early life = = = \n \n Most of what is known of Du Fu 's life comes from his poems . His paternal grandfather was Du Shenyan , a noted politician and poet . The population grew by 1 @,@ 500 , some 3 @.@ 5 per cent ; \" a year of N \" was said . \n",
        " = Tropical Storm Arlene ( 1993 ) = \n \n Tropical Storm Arlene was the first named storm of the 1993 Atlantic hurricane season . It formed on June 18 from a tropical depression in the Bay of Campeche [ 1 ] and moved northwestward ( toward Mexico ) . Winds reached 40 mph ( 65 km / h ) ! Was it strong ? No . \n",
    ]
    rows = [{"page": p} for p in pages]
    files = {"test": write_jsonl("wikitext", "wikitext_test.jsonl", rows), "train": write_jsonl("wikitext", "wikitext_train.jsonl", rows[:1]),
             "validation": write_jsonl("wikitext", "wikitext_validation.jsonl", rows[1:2])}
    write_cases("wikitext", [case("fid_wikitext", "wikitext/wikitext.yaml", files)])


def anli():
    def d(u, p, h, l, r=""):
        return {"uid": u, "premise": p, "hypothesis": h, "label": l, "reason": r}
    rows = [d("ed5c37ab-77c5-4dbc-ba75-8fd617b19712", "The Parma trolleybus system (Italian: \"Rete filoviaria di Parma\" ) forms part of the public transport network of the city and \"comune\" of Parma, in the region of Emilia-Romagna, northern Italy. In operation since 1953, the system presently comprises four urban routes.", "The trolleybus system has over 2 urban routes", 0),
            d("5d2930a3-62ac-485d-94d7-4e36cbbcd7b5", "Alexandra Lendon Bastedo (9 March 1946 – 12 January 2014) was a British actress, best known for her role as secret agent Sharron Macready in the 1968 British espionage/science fiction adventure series \"The Champions\".", "Sharron Macready was a popular character through the 1980's.", 1),
            d("324db753-ddc9-4a85-a825-f09e2e5aebdd", "Alexandra Lendon Bastedo (9 March 1946 – 12 January 2014) was a British actress, best known for her role as secret agent Sharron Macready.", "Bastedo didn't keep any pets because of her vegetarian lifestyle.", 2, "She was an animal activist."),
            d("4874f429-da0e-406a-90c7-22240ff3ddf8", "Ernest Jones is a British jeweller and watchmaker. Established in 1949, its first store was opened in Oxford Street, London.", "The first Ernest Jones store was opened on the continent of Europe.", 0),
            d("e6b4f4ea-c1b0-4d9d-9d3e-d2c3e10d9e6a", "Old Trafford is a football stadium in Old Trafford, Greater Manchester, England, and the home of Manchester United.", "Old Trafford is a basketball stadium.", 2)]
    files = {}
    for r in ("1", "2", "3"):
        files[r] = {f"test_r{r}": write_jsonl("anli", f"anli_test_r{r}.jsonl", rows[int(r) - 1:] + rows[:int(r) - 1]),
                    f"train_r{r}": write_jsonl("anli", f"anli_train_r{r}.jsonl", rows[:3]),
                    f"dev_r{r}": write_jsonl("anli", f"anli_dev_r{r}.jsonl", rows[3:])}
    cs = [case(f"fid_anli_r{r}", f"anli/anli_r{r}.yaml", files[r]) for r in ("1", "2", "3")]
    cs += [case(f"fid_anli_r{r}_2shot", f"anli/anli_r{r}.yaml", files[r], FS) for r in ("1", "3")]
    write_cases("anli", cs)


def logiqa():
    def d(l, c, q, o):
        return {"label": l, "context": c, "question": q, "options": o}
    test = [d("d", "Some Cantonese don't like chili, so some southerners don't like chili.", "Which of the following can guarantee the above argument?",
              ["Some Cantonese love chili.", "Some people who like peppers are southerners.", "All Cantonese are southerners.", "Some Cantonese like neither peppers nor sweets."]),
            d("a", "Continuous exposure to indoor fluorescent lights is beneficial to the health of hamsters with heart disease.", "Which of the following, if true, would most strengthen the above conclusion?",
              ["Hamsters exposed to fluorescent light live longer.", "Fluorescent lights are cheap.", "Hamsters prefer darkness.", "Heart disease is rare."]),
            d(" b ", "There are six singers: F, G, L, K, H, M. Three piano accompaniment: X, Y, W.", "If X accompanies F and H, which must be true?",
              ["W accompanies M.", "Y accompanies K.", "G and L sing together.", "M sings first."]),
            d("c", "A research report states that a special education program for children aged 3-5 under study increases their chances of success in future schooling.", "Which of the following, if true, weakens the report the most?",
              ["The program is expensive.", "Many children attend the program.", "Parents who enroll their children are more concerned with education.", "The program lasts two years."])]
    files = {"test": write_jsonl("logiqa", "logiqa_test.jsonl", test), "train": write_jsonl("logiqa", "logiqa_train.jsonl", test[1:]),
             "validation": write_jsonl("logiqa", "logiqa_validation.jsonl", test[:2])}
    write_cases("logiqa", [case("fid_logiqa", "logiqa/logiqa.yaml", files), case("fid_logiqa_2shot", "logiqa/logiqa.yaml", files, FS)])


def logiqa2():
    def d(i, a, t, q, o, typ):
        return {"id": i, "answer": a, "text": t, "question": q, "options": o, "type": typ}
    rows = [d(10471, 2, "The medieval Arabs had many manuscripts of the ancient Greek. When needed, they translate them into Arabic. Medieval Arab philosophers were very interested in Aristotle's Theory of Poetry, which was obviously not shared by Arab poets.", "Which of the following is most helpful in explaining the above phenomenon?",
              ["Medieval Arab philosophers did not read Greek.", "Aristotle's theory was translated late.", "Aristotle's Theory of Poetry is often used as a basis for criticism.", "Arab poets only wrote for kings."], {"Sufficient Conditional Reasoning": False, "Necessry Condtional Reasoning": False, "Conjunctive Reasoning": True, "Disjunctive Reasoning": False, "Categorical Reasoning": False}),
            d(10472, 0, "All the students in Class 3 passed the exam. Some students who passed the exam won a prize.", "Which of the following must be true?",
              ["Some students in Class 3 may not have won a prize.", "All students in Class 3 won a prize.", "No student in Class 3 won a prize.", "Only students in Class 3 won a prize."], {"Sufficient Conditional Reasoning": True, "Necessry Condtional Reasoning": False, "Conjunctive Reasoning": False, "Disjunctive Reasoning": False, "Categorical Reasoning": True}),
            d(10473, 3, "If it rains, the match will be cancelled. The match was not cancelled.", "Which of the following follows?",
              ["It rained.", "It may have rained.", "The match was moved.", "It did not rain."], {"Sufficient Conditional Reasoning": True, "Necessry Condtional Reasoning": False, "Conjunctive Reasoning": False, "Disjunctive Reasoning": False, "Categorical Reasoning": False}),
            d(10474, 1, "Either Zhang or Li will attend the meeting. Zhang will not attend.", "Who attends?",
              ["Zhang.", "Li.", "Neither.", "Both."], {"Sufficient Conditional Reasoning": False, "Necessry Condtional Reasoning": False, "Conjunctive Reasoning": False, "Disjunctive Reasoning": True, "Categorical Reasoning": False})]
    files = {"test": write_jsonl("logiqa2", "logiqa2_test.jsonl", rows), "train": write_jsonl("logiqa2", "logiqa2_train.jsonl", rows[1:]),
             "validation": write_jsonl("logiqa2", "logiqa2_validation.jsonl", rows[:2])}
    inst = "Instructions: You will be presented with a passage and a question about that passage."
    def le(r, ideal):
        opts = "\n".join(f"{'ABCD'[i]}. {o}" for i, o in enumerate(r["options"]))
        return {"content": f"Passage: {r['text']}\nQuestion: {r['question']}\n{opts}\nAnswer:", "ideal": ideal}
    lrows = [le(r, "ABCD"[r["answer"]]) for r in rows]
    lfiles = {"test": write_jsonl("logiqa2", "logieval_test.jsonl", lrows), "train": write_jsonl("logiqa2", "logieval_train.jsonl", lrows[2:])}
    answers = ["C", " A", "D.", "B", "The answer is B", "  d", "A) Some students"]
    write_cases("logiqa2", [case("fid_logiqa2", "logiqa2/logiqa2.yaml", files),
                            case("fid_logiqa2_2shot", "logiqa2/logiqa2.yaml", files, FS),
                            case("fid_logieval", "logiqa2/logieval.yaml", lfiles, answers=answers),
                            case("fid_logieval_2shot", "logiqa2/logieval.yaml", lfiles, FS, answers=answers)])


def mathqa():
    def d(p, r, o, c, af, lf, cat):
        return {"Problem": p, "Rationale": r, "options": o, "correct": c, "annotated_formula": af, "linear_formula": lf, "category": cat}
    rows = [d("a shopkeeper sold an article offering a discount of 5 % and earned a profit of 31.1 % . what would have been the percentage of profit earned if no discount had been offered ?",
              "\"giving no discount to customer implies selling the product on printed price . suppose the cost price of the article is 100 . then printed price = 100 ã — ( 100 + 31.1 ) / ( 100 â ˆ ’ 5 ) = 138 hence , required % profit = 138 â € “ 100 = 38 % answer a\"",
              "a ) 38 , b ) 27.675 , c ) 30 , d ) data inadequate , e ) none of these", "a", "subtract(multiply(add(100, 31.1), divide(100, subtract(100, 5))), 100)", "add(n1,const_100)|", "gain"),
            d("what is the 25th digit to the right of the decimal point in the decimal form of 6 / 11 ?", "\"6 / 11 = 0.54545454 . . . answer : b\"",
              "a ) 3 , b ) 4 , c ) 5 , d ) 6 , e ) 7", "c", "divide(6, 11)", "divide(n1,n2)|", "general"),
            d("a train running at the speed of 60 km / hr crosses a pole in 9 sec . what is the length of the train ?", "\"speed = 60 * 5 / 18 = 50 / 3 m / sec length = 50 / 3 * 9 = 150 m answer : e\"",
              "['a ) 120 m', 'b ) 180 m', 'c ) 324 m', 'd ) cannot be determined', 'e ) 150 m']", "e", "multiply(divide(multiply(60, const_1000), const_3600), 9)", "multiply(n0,const_1000)|", "physics"),
            d("if x + y = 10 and x - y = 2 , what is x ?", "x = 6 answer d", "a ) 2 , b ) 4 , c ) 5 , d ) 6 , e ) 8", "d", "divide(add(10, 2), 2)", "add(n0,n1)|", "general")]
    files = {"test": write_jsonl("mathqa", "mathqa_test.jsonl", rows), "train": write_jsonl("mathqa", "mathqa_train.jsonl", rows[1:]),
             "validation": write_jsonl("mathqa", "mathqa_validation.jsonl", rows[:2])}
    write_cases("mathqa", [case("fid_mathqa", "mathqa/mathqa.yaml", files), case("fid_mathqa_2shot", "mathqa/mathqa.yaml", files, FS)])


def race():
    def d(i, art, probs):
        return {"article": art, "problems": repr(probs), "example_id": i}
    rows = [d("high19432.txt", "The rain had continued for a week and the flood had created a big river which were running by Nancy Brown's farm. As she tried to gather her cows to a higher ground, she slipped and hit her head on a fallen tree trunk.",
              [{"answer": "C", "options": ["Sunday.", "Saturday.", "Friday.", "Thursday."], "question": "What did Nancy try to do before she fell over?"},
               {"answer": "D", "options": ["Her cows.", "A fallen tree.", "Her neighbour.", "A helicopter."], "question": "The rescuers found Nancy with the help of  _  ."}]),
            d("high7645.txt", "Last week I talked with some of my students about what they wanted to do after they graduated, and what kind of job prospects they thought they had.",
              [{"answer": "B", "options": ["Their parents' jobs.", "Their future jobs.", "Their school lessons.", "Their hobbies."], "question": "What did the writer talk about with the students?"},
               {"answer": "A", "options": ["hopeful", "worried", "angry", "bored"], "question": "Most of the students feel  _  ."},
               {"answer": "C", "options": ["teachers", "parents", "students", "workers"], "question": "The passage is mainly written for  _  ."}]),
            d("high1234.txt", "A short story about a long day.",
              [{"answer": "A", "options": ["long", "short", "sad", "funny"], "question": "The day was  _  ."}])]
    files = {"test": write_jsonl("race", "race_test.jsonl", rows)}
    write_cases("race", [case("fid_race", "race/race.yaml", files)])


FAMILIES = {f.__name__: f for f in (hellaswag, arc, piqa, winogrande, openbookqa, sciq, commonsense_qa, boolq, copa, siqa,
                                    lambada, wikitext, anli, logiqa, logiqa2, mathqa, race)}

if __name__ == "__main__":
    for name in sys.argv[1:] or FAMILIES:
        FAMILIES[name]()
