#!/usr/bin/env python3
"""Reference segmentations for ports/internal/jieba, from jieba 0.42.1 (Debian's
python3-jieba): list(jieba.cut(text)) of mixed Chinese/ASCII texts.

usage (from the repository root):
  /usr/bin/python3 ports/internal/jieba/testdata/gen_vectors.py > ports/internal/jieba/testdata/vectors.json
"""
import json
import logging
import random

import jieba

jieba.setLogLevel(logging.ERROR)
texts = [
    "我来到北京清华大学", "他来到了网易杭研大厦", "小明硕士毕业于中国科学院计算所，后在日本京都大学深造",
    "请基于给定的文章回答下述问题。", "2023年GDP增长了5.2%，达到126万亿元！", "C++和c#是编程语言, AT&T是公司",
    "   空格\t和\r\n换行  ", "", "Hello world 你好世界", "乒乓球拍卖完了", "结婚的和尚未结婚的",
    "工信处女干事每月经过下属科室都要亲口交代24口交换机等技术性器件的安装工作", "韩玉赏鉴李小福的篆刻", "ｆｕｌｌ－ｗｉｄｔｈ　全角",
    "段落1：河流。段落2：山脉。", "答案是段落14", "特朗普和拜登在2020年大选中对决", "一二三四五六七八九十百千万亿",
]
rnd = random.Random(11)
chars = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质"
for _ in range(40):
    n = rnd.randint(1, 30)
    texts.append("".join(rnd.choice(chars + "ab1 .%-，。") for _ in range(n)))
print(json.dumps([[t, list(jieba.cut(t, cut_all=False))] for t in texts], ensure_ascii=False, indent=0))
