package a

func flag() {}

func f() {
	flag() // want "flagged"

	//idemcheck:ignore IDEM900 checked by hand: the line above counts
	flag()

	flag() //idemcheck:ignore IDEM900,IDEM901 checked here: the same line counts

	//idemcheck:ignore IDEM901 another rule's directive does not count
	flag() // want "flagged"

	//idemcheck:ignore IDEM900
	flag() // want "flagged"
}
