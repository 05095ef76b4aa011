package quiet

func flag() {}

func use() { flag() }
