PAIRS = [["El gat menja peix al matí.", "el gat menja peix"], ["La casa és gran", "és una casa petita"],
         ["Àvila i Girona", "girona"], ["", "res"], ["Un dos tres quatre", "un dos tres quatre"],
         ["Barcelona, 1992: els Jocs", "els jocs de 1992 a Barcelona"], ["x y z", ""],
         ["L'estiu és càlid", "l estiu es calid"], ["dades noves", "dades velles"], ["a b a b", "b a"],
         ["Qui va escriure el Quixot?", "Cervantes"], ["Cervantes va escriure el Quixot", "el Quixot"]]
